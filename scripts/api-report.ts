// The public surface, entry by entry, as API Extractor reports it: every name each `exports` entry
// of package.json gives users, with its signature, in `api/<entry>.api.md`. A change to the surface
// is a diff of these files, reviewed like any other; a type an entry reaches but does not export
// (`ae-forgotten-export`) is an error, so users can always name what they are given. One exception:
// an option type is `z.input<typeof XOptionsSchema>`, so declarations reach the zod schema and the
// field shapes it is built from; those are how the type is declared, not names a user writes. The
// report lists them unexported (`includeForgottenExports`), so a change to an option's fields is a
// reviewed diff too.
//
// A report lists its entry's own names. A namespace the entry re-exports from another entry
// (`export type * as core from '../index.js'`) is one line naming that entry, and the names of it
// the entry's signatures use are imported from it (scripts/api-report-namespaces.ts): each name is
// reviewed once, in the report of the entry that exports it. The reports are written with LF line
// ends and no path of this machine, so a clean clone anywhere produces the same files.
//
//   npm run api:check    fails when the built surface differs from the committed reports
//   npm run api:update   rewrites the reports after a deliberate change
//
// It reads the build's declarations: run `npm run build` first.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type IConfigFile,
} from '@microsoft/api-extractor'
import { referenceNamespaces, type ReexportedNamespace } from './api-report-namespaces.js'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const REPORTS = join(REPO, 'api')

/** One entry of package.json `exports`: its subpath and its declarations in the build. */
export interface PackageEntry {
  /** `.`, `./stats`, …, as package.json names it. */
  subpath: string
  /** The report's name: `index` for the root, else the subpath without `./` (`ai-sdk`). */
  report: string
  /** The built `.d.ts`, relative to the repository. */
  types: string
}

/** The entries of package.json `exports` that have types: the package's surface, listed once. */
export function packageEntries(manifest: { exports: Record<string, unknown> }): PackageEntry[] {
  return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    const types = (target as { types?: unknown }).types
    if (typeof types !== 'string') return []
    const report = subpath === '.' ? 'index' : subpath.replace(/^\.\//, '').replaceAll('/', '-')
    return [{ subpath, report, types: types.replace(/^\.\//, '') }]
  })
}

/** The subpath users import an entry by: `vitest-causal-replay`, `vitest-causal-replay/types`. */
function importNameOf(entry: PackageEntry): string {
  return entry.subpath === '.' ? 'vitest-causal-replay' : `vitest-causal-replay${entry.subpath.slice(1)}`
}

/**
 * The namespaces each entry re-exports from another entry (`export type * as core from
 * '../index.js'`), read from its built declarations, by the entry's report name.
 */
function reexportedNamespaces(entries: readonly PackageEntry[]): Map<string, ReexportedNamespace[]> {
  const byTypes = new Map(entries.map((entry) => [entry.types, entry]))
  return new Map(
    entries.map((entry) => {
      const declarations = readFileSync(join(REPO, entry.types), 'utf8')
      const namespaces = [
        ...declarations.matchAll(/^export type \* as ([\w$]+) from '([^']+)';?$/gm),
      ].flatMap(([, name, specifier]) => {
        const target = relative(REPO, resolve(dirname(join(REPO, entry.types)), specifier!)).replace(
          /\.js$/,
          '.d.ts',
        )
        const reexported = byTypes.get(target.split('\\').join('/'))
        return reexported === undefined ? [] : [{ name: name!, importName: importNameOf(reexported) }]
      })
      return [entry.report, namespaces]
    }),
  )
}

function configOf(entry: PackageEntry, temp: string): IConfigFile {
  return {
    projectFolder: REPO,
    mainEntryPointFilePath: join(REPO, entry.types),
    compiler: { tsconfigFilePath: join(REPO, 'tsconfig.build.json') },
    apiReport: {
      enabled: true,
      // API Extractor writes its full report here; the committed one is made from it (see above).
      reportFolder: temp,
      reportTempFolder: temp,
      reportFileName: entry.report,
      includeForgottenExports: true,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.None },
        // What the surface must hold: every type an entry reaches, exported by that entry. Logged,
        // not written into the report: a message the report carries is not counted as an error, so
        // the check would pass with the warning in the committed file.
        'ae-forgotten-export': { logLevel: ExtractorLogLevel.Error, addToApiReportFile: false },
        'ae-wrong-input-file-type': { logLevel: ExtractorLogLevel.Error },
      },
      // Doc comments are written for readers and TypeDoc, not to TSDoc's strict grammar.
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
    },
  }
}

/**
 * Whether a forgotten export is part of how an option type is declared: an option schema
 * (`RarelyOptionsSchema`), a field shape (`rarelyFields`, `signalField`, `CommonFields`) or the
 * schema type they share (`StrictOptions`).
 */
function isOptionDeclaration(text: string): boolean {
  const symbol = /The symbol "([^"]+)"/.exec(text)?.[1] ?? ''
  // API Extractor numbers a name declared twice (`budgetField_2`).
  return /(OptionsSchema|Schema|Fields|Field)(_\d+)?$/.test(symbol) || symbol === 'StrictOptions'
}

function main(): number {
  const update = process.argv.includes('--update')
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>
  }
  const entries = packageEntries(manifest)
  const missing = entries.filter((entry) => !existsSync(join(REPO, entry.types)))
  if (missing.length > 0) {
    console.error(`api-report reads the build: ${missing[0]!.types} is missing, run \`npm run build\` first.`)
    return 1
  }
  mkdirSync(REPORTS, { recursive: true })
  const temp = join(tmpdir(), 'causal-replay-api-report')
  const configs = entries.map((entry) =>
    ExtractorConfig.prepare({
      configObject: configOf(entry, temp),
      configObjectFullPath: join(REPO, 'api', `${entry.report}.api-extractor.json`),
      packageJsonFullPath: join(REPO, 'package.json'),
    }),
  )
  // One TypeScript program for every entry: each run only analyses its own entry in it.
  const compilerState = CompilerState.create(configs[0]!, {
    additionalEntryPoints: configs.map((config) => config.mainEntryPointFilePath),
  })
  const namespaces = reexportedNamespaces(entries)
  const importNames = new Map(
    [...namespaces.values()].flat().map((namespace) => [namespace.name, namespace.importName]),
  )
  const failed: string[] = []
  entries.forEach((entry, i) => {
    const result = Extractor.invoke(configs[i]!, {
      localBuild: true,
      compilerState,
      messageCallback: (message) => {
        if (message.messageId === 'ae-forgotten-export' && isOptionDeclaration(message.text)) {
          message.logLevel = ExtractorLogLevel.None
        }
      },
    })
    const label = entry.subpath === '.' ? 'vitest-causal-replay' : `vitest-causal-replay/${entry.report}`
    const full = readFileSync(join(temp, `${entry.report}.api.md`), 'utf8').replaceAll('\r\n', '\n')
    const report = referenceNamespaces(full, namespaces.get(entry.report) ?? [], importNames)
    const path = join(REPORTS, `${entry.report}.api.md`)
    const committed = existsSync(path) ? readFileSync(path, 'utf8') : undefined
    if (update && committed !== report) writeFileSync(path, report)
    if (result.errorCount > 0) failed.push(`${label}: ${result.errorCount} error(s) above`)
    else if (committed !== report && !update)
      failed.push(`${label}: the surface differs from api/${entry.report}.api.md`)
  })
  if (failed.length > 0) {
    console.error(`\n${failed.join('\n')}`)
    if (!update)
      console.error(
        'A deliberate change to the public surface: run `npm run build && npm run api:update` and commit api/.',
      )
    return 1
  }
  console.log(`\napi: ${entries.length} entries ${update ? 'written to' : 'match'} api/*.api.md`)
  return 0
}

process.exitCode = main()
