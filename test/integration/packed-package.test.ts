import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, posix } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PACKAGE_TOP_LEVEL, tarballFiles, unexpectedTopLevel } from '../../scripts/check-package.js'
import { copyFixture, packedTarball, type FixtureProject, type RunResult } from './fixture-project.js'

const execFileAsync = promisify(execFile)

// What `npm publish` would ship (the tarball the fixture projects install), and one real Vitest
// run of a user's project (test/fixtures/support) against it.
let shipped: Set<string>
let unpacked: string
let project: FixtureProject
let run: RunResult
/** What the runs printed, and the JSON report, where failure messages keep their full stacks. */
let printed: string

beforeAll(async () => {
  const tarball = packedTarball()
  shipped = new Set(await tarballFiles(tarball))
  unpacked = await mkdtemp(join(tmpdir(), 'causal-replay-unpacked-'))
  await execFileAsync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'])
  project = await copyFixture('support')
  const out = join(project.root, 'out')
  await mkdir(out)
  // The default reporter hides stack frames inside node_modules; the JSON report keeps them whole.
  run = await project.vitest(
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(out, 'results.json')}`],
    { CAUSAL_REPLAY_FIXTURE_OUT: out },
  )
  // Node itself, with source maps on, shows a library frame the way a user's script would see it.
  const thrown = await project.node([
    '--enable-source-maps',
    '--input-type=module',
    '--eval',
    "import { defineAgent } from 'vitest-causal-replay'; try { defineAgent() } catch (error) { console.log(error.stack) }",
  ])
  const report = await readFile(join(out, 'results.json'), 'utf8')
  printed = [run.stdout, run.stderr, report, thrown.stdout, thrown.stderr].join('\n')
}, 120_000)

afterAll(async () => {
  await project?.remove()
  if (unpacked !== undefined) await rm(unpacked, { recursive: true, force: true })
})

interface SourceMap {
  sourceRoot?: string
  sources: string[]
  sourcesContent?: Array<string | null>
}

/** Every string a package.json `exports` entry can resolve to, whatever its conditions. */
function exportTargets(entry: unknown): string[] {
  if (typeof entry === 'string') return [entry]
  if (entry === null || typeof entry !== 'object') return []
  return Object.values(entry).flatMap(exportTargets)
}

/** Every source file the shipped source maps point to (sources inlined in a map are not files), by map. */
async function mappedSources(): Promise<Array<{ map: string; source: string; file: string }>> {
  const mapped: Array<{ map: string; source: string; file: string }> = []
  for (const file of [...shipped].filter((shippedFile) => shippedFile.endsWith('.map'))) {
    const map = JSON.parse(await readFile(join(unpacked, file), 'utf8')) as SourceMap
    map.sources.forEach((source, index) => {
      if (typeof map.sourcesContent?.[index] === 'string') return
      const resolved = posix.normalize(posix.join(dirname(file), map.sourceRoot ?? '', source))
      mapped.push({ map: file, source, file: resolved })
    })
  }
  return mapped
}

describe('the packed package', () => {
  it('ships the built entry points and what their source maps point to', async () => {
    const mapped = await mappedSources()
    expect(mapped.length).toBeGreaterThan(0)
    const unresolved = mapped
      .filter(({ file }) => !shipped.has(file))
      .map(({ map, source }) => `${map} → ${source}`)
    // A map whose source is gone is usually output of a renamed file left in dist/ by an earlier
    // build (tsc never deletes): `npm pack` would publish it too. Rebuild from an empty dist/.
    expect(unresolved, 'source maps pointing at files the tarball lacks').toEqual([])
  })

  it('ships the manifest, the README, the licence, dist/ and the sources, and nothing else at its top', () => {
    expect(shipped).toContain('package.json')
    expect(shipped).toContain('README.md')
    expect(unexpectedTopLevel(shipped), `allowed: ${[...PACKAGE_TOP_LEVEL].join(', ')}`).toEqual([])
  })

  it('ships only built JavaScript, declarations and their maps in dist/', () => {
    const built = [...shipped].filter((file) => file.startsWith('dist/'))
    expect(built.length).toBeGreaterThan(0)
    expect(built.filter((file) => !/\.(js|d\.ts)(\.map)?$/.test(file))).toEqual([])
    // Each built file comes with its map, so stack frames and "go to definition" reach the source.
    expect(built.filter((file) => !file.endsWith('.map') && !shipped.has(`${file}.map`))).toEqual([])
  })

  it('ships only sources that a shipped source map points to', async () => {
    // A source no map points to is not code (dead weight), or was added since dist/ was built:
    // `npm run build` first, which starts from an empty dist/.
    const mapped = new Set((await mappedSources()).map(({ file }) => file))
    const sources = [...shipped].filter((file) => /^(src|matchers)\//.test(file))
    expect(sources.length).toBeGreaterThan(0)
    expect(sources.filter((file) => !mapped.has(file))).toEqual([])
  })

  it('ships no tests, fixtures or node_modules', () => {
    const unwanted = [...shipped].filter((file) =>
      /(^|\/)(test|tests|__tests__|fixtures|__snapshots__|node_modules)\/|\.(test|spec)\.[cm]?[jt]s(\.map)?$/.test(
        file,
      ),
    )
    expect(unwanted).toEqual([])
  })

  it('ships every target of package.json `exports` and `bin`', async () => {
    const manifest = JSON.parse(await readFile(join(unpacked, 'package.json'), 'utf8')) as {
      exports: unknown
      bin?: string | Record<string, string>
    }
    const targets = [
      ...exportTargets(manifest.exports),
      ...(typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {})),
    ]
    expect(targets.length).toBeGreaterThan(0)
    expect(targets.filter((target) => !shipped.has(posix.normalize(target)))).toEqual([])
  })
})

describe('a project that installed the packed package', () => {
  it('runs without source-map warnings', () => {
    // The fixture fails some tests on purpose; what matters here is that the run happened.
    expect(run.stdout).toMatch(/Tests +.*\d+ passed/)
    expect(printed.split('\n').filter((line) => line.includes('Sourcemap for'))).toEqual([])
  })

  it('shows stack frames only at files the package ships', () => {
    const frames = [...printed.matchAll(/vitest-causal-replay\/((?:src|matchers|dist)\/[^\s:)'"\\]+)/g)].map(
      (match) => match[1]!,
    )
    // Vitest hides frames inside node_modules; the Node run above keeps one, mapped to its source.
    expect(frames).toContain('src/agent/define-agent.ts')
    expect(frames.filter((file) => !shipped.has(file))).toEqual([])
  })
})
