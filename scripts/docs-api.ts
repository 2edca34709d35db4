// Generates the site's API reference (docs/api/, not committed) from the package's public entries:
// every subpath of package.json `exports` that has types, mapped from its built declaration back to
// its TypeScript source, so the reference documents exactly what users can import.
//
//   npx tsx scripts/docs-api.ts
import { rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Application, Converter, ReflectionKind } from 'typedoc'
import { ROOT, publicEntries } from './public-entries.js'

/** Where the reference is written: a folder of the site, ignored by git, lint and prettier. */
export const API_DIR = resolve(ROOT, 'docs/api')

/** A marker line of a generated example block in a doc comment. */
const EXAMPLE_MARKER = /^<!-- \/?example:\S+ -->\n?/gm

/** TypeDoc's name for an entry's module: its path without `.ts` and a final `/index`. */
function moduleName(source: string): string {
  return source.replace(/\.ts$/, '').replace(/\/index$/, '')
}

/** Writes the Markdown reference to `out` (default API_DIR); throws when TypeDoc reports an error. */
export async function generateApiReference(out: string = API_DIR): Promise<void> {
  await rm(out, { recursive: true, force: true })
  const entries = await publicEntries()
  const app = await Application.bootstrapWithPlugins({
    entryPoints: entries.map((entry) => resolve(ROOT, entry.source)),
    tsconfig: resolve(ROOT, 'tsconfig.build.json'),
    plugin: ['typedoc-plugin-markdown'],
    out,
    readme: 'none',
    entryFileName: 'index',
    // Vue compiles the site's Markdown: angle brackets and braces in comments must stay text.
    sanitizeComments: true,
    hidePageHeader: true,
    hideBreadcrumbs: true,
    useCodeBlocks: true,
    excludePrivate: true,
    excludeInternal: true,
    skipErrorChecking: true,
    disableSources: true,
    logLevel: 'Warn',
  } as Parameters<typeof Application.bootstrapWithPlugins>[0])
  // Modules are named as users import them, not by their folder in this repository.
  const importNames = new Map(entries.map((entry) => [moduleName(entry.source), entry.importName]))
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const importName = importNames.get(module.name)
      if (importName !== undefined) module.name = importName
    }
  })
  // An example's markers (`<!-- example:… -->`, see scripts/readme-output.ts) say where its code
  // comes from; the reference shows the code alone.
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    // Every reflection, signatures included (a function's comment is its signature's).
    for (const { comment } of Object.values(context.project.reflections)) {
      if (comment === undefined) continue
      for (const parts of [comment.summary, ...comment.blockTags.map((tag) => tag.content)]) {
        for (const part of parts) {
          if (part.kind === 'text') part.text = part.text.replace(EXAMPLE_MARKER, '')
        }
      }
    }
  })
  const project = await app.convert()
  if (project === undefined) throw new Error('TypeDoc could not convert the public entries.')
  await app.generateOutputs(project)
  if (app.logger.hasErrors()) throw new Error('TypeDoc reported errors while writing the API reference.')
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await generateApiReference()
  console.log(`API reference written to ${API_DIR}`)
}
