// Keeps every code block of the README and of the documentation site (docs/**/*.md) honest. Each
// block sits between `<!-- name -->` and `<!-- /name -->` markers and is generated:
//
// - `quick-start:*`: the Quick start's test file, built from examples/quick-start/support.ts (the one
//   copy of the agent), what that test prints when it fails, and that failure's trajectory;
// - `output:*`: what the library prints for the inputs the page describes (a cost line, a stale
//   cassette's warning, an option error, the CLI's help);
// - `example:<file>[#<region>]`: a file under examples/, or the lines between its `#region <region>`
//   and `#endregion` comments, with relative imports of the package's entries shown as the names
//   users import (examples are type-checked, and their tests run with the suite);
// - `bench:<run>`: a bench's seeded output, as bench/figures/ stores it (scripts/doc-figures.ts,
//   which also fills the figures quoted in prose, `<!--fig:<key>-->…<!--/fig-->`, here and in
//   docs/ARCHITECTURE.md).
//
// `npm run readme` rewrites the blocks and figures; test/readme.test.ts fails when a page differs or
// has a code block outside the markers, so a change to the agent, an example, a message or a bench's
// output reaches the pages only as a deliberate refresh.
//
//   npx tsx scripts/readme-output.ts
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, extname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { supportAgent } from '../examples/quick-start/support.js'
import { formatStaleCassetteLine } from '../src/cassette/stale-warning.js'
import { runCli } from '../src/cli/run.js'
import { calledTool, check, rarely } from '../src/index.js'
import { record, runRollouts } from '../src/entries/replay.js'
import { formatCostLine } from '../src/text/cost.js'
import { judgeCorrectionPlan, refuseUnpassableCorrection } from '../src/verdict/judge-correction.js'
import { documentedRun } from '../bench/runs.js'
import {
  FIGURE_ONLY_PAGES,
  benchBlock,
  benchRunsTable,
  figureKeys,
  fillFigures,
  outputsFor,
} from './doc-figures.js'
import { ROOT, publicEntries } from './public-entries.js'

/** The README this script keeps up to date. */
export const README_PATH = fileURLToPath(new URL('../README.md', import.meta.url))

const EXAMPLE_PATH = fileURLToPath(new URL('../examples/quick-start/support.ts', import.meta.url))

/**
 * The Quick start test as the README writes it. Vitest derives the seed from the test file
 * (relative to the project root) and the test's full name, and so does `check` from its `file` and
 * `name`: the output below is the one a user who copies the Quick start sees, number for number.
 */
const TEST_FILE = 'support.test.ts'
const TEST_NAME = 'rarely refunds wrongly'
/** The passing test beside the failing one: the same agent on a ticket without the note. */
const PASSING_NAME = 'rarely refunds a plain late order'
const PLAIN_TICKET = { orderId: 'A-1002', message: 'My order is late.' }

/** Where the matchers write reports by default, relative to the project root. */
const REPORT_DIR = '.causal-replay'

/** The documentation site's pages: docs/, without the maintainers' document and generated pages. */
const DOCS_DIR = resolve(ROOT, 'docs')
const NOT_SITE_PAGES = ['ARCHITECTURE.md', 'api', '.vitepress']

/** The Quick start's blocks, each between `<!-- name -->` and `<!-- /name -->`. */
export type ReadmeBlock = 'quick-start:code' | 'quick-start:output' | 'quick-start:trajectory'

/** Blocks of what the library prints for the inputs their page describes. */
export type OutputBlock =
  | 'output:cost-line'
  | 'output:stale-cassette'
  | 'output:invalid-option'
  | 'output:cli-help'
  | 'output:bench-runs'
  | 'output:judge-refusal'

/**
 * Any generated block: the Quick start's, an output, an example (`example:<file>[#<region>]`) or a
 * bench's seeded output (`bench:<run>`).
 */
export type GeneratedBlock = ReadmeBlock | OutputBlock | `example:${string}` | `bench:${string}`

/** An opening marker line of a generated block; its group is the block's name. */
const OPENING_MARKER = /^<!-- ((?:quick-start|output|example|bench):\S+) -->$/

/** Every page whose code blocks are generated: README.md and the site's Markdown pages, sorted. */
export async function documentedPages(): Promise<string[]> {
  const pages: string[] = []
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (dir === DOCS_DIR && NOT_SITE_PAGES.includes(entry.name)) continue
      if (entry.isDirectory()) await walk(path)
      else if (entry.name.endsWith('.md')) pages.push(path)
    }
  }
  await walk(DOCS_DIR)
  return [README_PATH, ...pages.sort()]
}

/** Every page whose figures are filled: the documented pages and the maintainers' architecture document. */
export async function figurePages(): Promise<string[]> {
  return [...(await documentedPages()), ...FIGURE_ONLY_PAGES]
}

/** Every generated block of the README, by name, as it should read now. */
export async function quickStartBlocks(): Promise<Record<ReadmeBlock, string>> {
  const code = await quickStartCode()
  await quickStartPass()
  const { message, replay } = await quickStartFailure()
  const trajectory = await record(supportAgent, replay)
  return {
    'quick-start:code': code,
    'quick-start:output': fenced('', [message]),
    'quick-start:trajectory': fenced('json', [JSON.stringify(trajectory, null, 2)]),
  }
}

/**
 * The Quick start test file, as a fenced block: the agent of examples/quick-start/support.ts, under
 * the imports a user writes (the package by name) and above the test the README explains.
 */
export async function quickStartCode(): Promise<string> {
  const source = await readFile(EXAMPLE_PATH, 'utf8')
  const start = source.indexOf('export const supportAgent')
  if (start === -1) throw new Error(`${EXAMPLE_PATH} no longer exports \`supportAgent\`.`)
  const agent = source
    .slice(start)
    .replace(/^export /, '')
    .trimEnd()
  return fenced('ts', [
    `// ${TEST_FILE}`,
    `import { test, expect } from 'vitest'`,
    `import { calledTool, defineAgent } from 'vitest-causal-replay'`,
    '',
    agent,
    '',
    `test('${TEST_NAME}', async () => {`,
    `  await expect(supportAgent).toRarely(calledTool('issue_refund'), { atMost: 0.05 })`,
    '})',
    '',
    `test('${PASSING_NAME}', async () => {`,
    `  const plain = supportAgent.on({ orderId: '${PLAIN_TICKET.orderId}', message: '${PLAIN_TICKET.message}' })`,
    `  await expect(plain).toRarely(calledTool('issue_refund'), { atMost: 0.05 })`,
    '})',
  ])
}

/** Checks that the Quick start's passing test passes, as the README says it does. */
async function quickStartPass(): Promise<void> {
  const result = await check(
    supportAgent.on(PLAIN_TICKET),
    rarely(calledTool('issue_refund'), { atMost: 0.05 }),
    {
      name: PASSING_NAME,
      file: TEST_FILE,
    },
  )
  if (!result.passed) throw new Error(`The Quick start's passing test no longer passes:\n${result.message}`)
}

/**
 * What the Quick start test prints when it fails, and the replay handle of its failing run: the
 * matcher's message, through `check`, the pipeline the matcher runs, with the test's file and name
 * (so the same seed) and a report directory of its own, shown as the project's `.causal-replay/`
 * where Vitest would write it.
 */
async function quickStartFailure(): Promise<{ message: string; replay: { seed: number; rollout: number } }> {
  const reportDir = await mkdtemp(join(tmpdir(), 'causal-replay-readme-'))
  // A suite rerun with CAUSAL_REPLAY_SEED would change every number: the README shows the test's own seed.
  const seedOverride = process.env['CAUSAL_REPLAY_SEED']
  delete process.env['CAUSAL_REPLAY_SEED']
  try {
    const result = await check(supportAgent, rarely(calledTool('issue_refund'), { atMost: 0.05 }), {
      name: TEST_NAME,
      file: TEST_FILE,
      reportDir,
    })
    const written = `report: ${resolve(reportDir)}${sep}`
    const { replay } = result.verdict
    if (!result.message.includes(written) || replay === null) {
      throw new Error(`The Quick start no longer fails with a report and a replay handle:\n${result.message}`)
    }
    return { message: result.message.replace(written, `report: ${REPORT_DIR}/`), replay }
  } finally {
    if (seedOverride !== undefined) process.env['CAUSAL_REPLAY_SEED'] = seedOverride
    await rm(reportDir, { recursive: true, force: true })
  }
}

/** The text between a block's markers (without the marker lines); throws when the markers are missing. */
export function readmeBlock(readme: string, block: GeneratedBlock): string {
  const { start, end } = locate(readme, block)
  return readme.slice(start, end)
}

/** `readme` with a block's text replaced by `content`. */
export function replaceReadmeBlock(readme: string, block: GeneratedBlock, content: string): string {
  const { start, end } = locate(readme, block)
  return readme.slice(0, start) + content + readme.slice(end)
}

/**
 * Rewrites the generated blocks and the figures of `pages` (default: every page whose figures are
 * filled); returns the pages that changed.
 */
export async function refreshPages(pages?: readonly string[]): Promise<string[]> {
  const paths = pages ?? (await figurePages())
  const texts = await Promise.all(paths.map((path) => readFile(path, 'utf8')))
  const blocks = await generatedBlocks(texts.flatMap(blockNames))
  const outputs = await outputsFor([], texts.flatMap(figureKeys))
  const changed: string[] = []
  for (const [index, path] of paths.entries()) {
    const before = texts[index] as string
    let after = before
    for (const block of blockNames(before))
      after = replaceReadmeBlock(after, block, blocks.get(block) as string)
    after = fillFigures(after, outputs, relative(ROOT, path))
    if (after === before) continue
    await writeFile(path, after)
    changed.push(path)
  }
  return changed
}

/** The generated text of each of `names`, each computed once. */
export async function generatedBlocks(names: readonly string[]): Promise<Map<string, string>> {
  const wanted = new Set(names)
  const blocks = new Map<string, string>()
  if ([...wanted].some((name) => name.startsWith('quick-start:'))) {
    for (const [name, text] of Object.entries(await quickStartBlocks())) blocks.set(name, text)
  }
  if ([...wanted].some((name) => name.startsWith('output:'))) {
    for (const [name, text] of Object.entries(await outputBlocks())) blocks.set(name, text)
  }
  const runs = [...wanted]
    .filter((name) => name.startsWith('bench:'))
    .map((name) => name.slice('bench:'.length))
  const outputs = await outputsFor(runs, [])
  for (const run of runs)
    blocks.set(`bench:${run}`, benchBlock(documentedRun(run), outputs.get(run) as string))
  for (const name of wanted) {
    if (name.startsWith('example:')) blocks.set(name, await exampleBlock(name.slice('example:'.length)))
    else if (!blocks.has(name)) throw new Error(`No generator makes the block \`${name}\`.`)
  }
  return blocks
}

/** The names of the generated blocks of a page, in order (each opening marker once). */
export function blockNames(page: string): GeneratedBlock[] {
  const names: GeneratedBlock[] = []
  for (const match of page.matchAll(new RegExp(OPENING_MARKER.source, 'gm'))) {
    names.push(match[1] as GeneratedBlock)
  }
  return names
}

/**
 * The 1-based lines of a page's fenced code blocks that no generated block holds: each is a block
 * that nothing checks.
 */
export function unmarkedFences(page: string): number[] {
  const lines = page.split('\n')
  const unmarked: number[] = []
  let block: string | null = null
  let fence: string | null = null
  for (const [index, line] of lines.entries()) {
    if (fence !== null) {
      if (line.trim() === fence) fence = null
      continue
    }
    const opening = OPENING_MARKER.exec(line)
    if (opening !== null) block = opening[1] as string
    else if (block !== null && line === `<!-- /${block} -->`) block = null
    const fenceOpening = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fenceOpening !== null) {
      fence = fenceOpening[1] as string
      if (block === null) unmarked.push(index + 1)
    }
  }
  return unmarked
}

/**
 * What the library prints, for the inputs the pages describe: the cost line of an agent on a model
 * that mostly hit its cassette, a stale cassette's warning in CI, a misspelled option's error, and
 * the CLI's help; and what `npm run bench` runs.
 */
export async function outputBlocks(): Promise<Record<OutputBlock, string>> {
  const costLine = formatCostLine({
    modelCalls: 412,
    cassetteHits: 380,
    inputTokens: 90_000,
    outputTokens: 8210,
    usd: 0.0123,
    unpricedCalls: 0,
    savedUsd: 0.118,
  })
  if (costLine === null) throw new Error('formatCostLine printed no line for 412 model calls.')
  const staleLine = formatStaleCassetteLine(
    {
      file: join(process.cwd(), '__cassettes__', 'support.test.js.cassette.json'),
      misses: 132,
      firstDifference:
        'step 0 "decide#1" prompt[0].content: … otherwise escalate." → … otherwise escalate. Be brief."',
    },
    process.cwd(),
  )
  return {
    'output:cost-line': fenced('', [`  ${costLine}`]),
    'output:stale-cassette': fenced('', [staleLine]),
    'output:invalid-option': fenced('', [await invalidOptionMessage()]),
    'output:cli-help': fenced('', [(await cliOutput(['--help'])).trimEnd()]),
    'output:bench-runs': benchRunsTable(),
    'output:judge-refusal': fenced('text', [judgeRefusalMessage()]),
  }
}

/**
 * The refusal of a judge-corrected "at most 2%" claim whose calibration (sensitivity 8/13,
 * specificity 27/27, a new user's 40 labels) no outcome of 400 rollouts could pass.
 */
function judgeRefusalMessage(): string {
  const calibration = { sensitivity: { correct: 8, of: 13 }, specificity: { correct: 27, of: 27 } }
  try {
    refuseUnpassableCorrection(judgeCorrectionPlan(calibration, 0.02, 0.05), {
      direction: 'atMost',
      bound: 0.02,
      maxRollouts: 400,
    })
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('The judge pre-flight let an unpassable calibration through.')
}

/** The error `runRollouts` throws for a misspelled budget option. */
async function invalidOptionMessage(): Promise<string> {
  try {
    await runRollouts(supportAgent, { budget: { maxRolouts: 5 } } as unknown as Parameters<
      typeof runRollouts
    >[1])
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('runRollouts accepted the misspelled option `budget.maxRolouts`.')
}

/** What `causal-replay <argv>` writes to stdout; throws when it fails. */
async function cliOutput(argv: readonly string[]): Promise<string> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  })
  if (code !== 0) throw new Error(`causal-replay ${argv.join(' ')} exited ${code}: ${stderr}`)
  return stdout
}

/** The fence language of an example file, by its extension. */
const LANGUAGES: Record<string, string> = {
  '.ts': 'ts',
  '.yml': 'yaml',
  '.yaml': 'yaml',
  '.sh': 'sh',
  '.jsonl': 'jsonl',
}

/**
 * An example as a fenced block: `spec` is `<file>` or `<file>#<region>`, the file relative to the
 * repository and under examples/. A region is the lines between `#region <name>` and `#endregion`
 * (in a `//` or `#` comment); other region comments inside it are left out, and the lines are
 * dedented. A relative import of a public entry shows as its package name (`vitest-causal-replay`,
 * `vitest-causal-replay/ai-sdk`); a relative import of any other file of src/ is refused, since
 * users cannot write it.
 */
export async function exampleBlock(spec: string): Promise<string> {
  const [file, region] = spec.split('#') as [string, string | undefined]
  if (!file.startsWith('examples/')) throw new Error(`Example \`${spec}\`: the file must be under examples/.`)
  const path = resolve(ROOT, file)
  const language = LANGUAGES[extname(path)]
  if (language === undefined)
    throw new Error(`Example \`${spec}\`: no fence language for ${extname(path)} files.`)
  const source = await readFile(path, 'utf8')
  const lines = source.replace(/\n$/, '').split('\n')
  const pieces: string[][] = []
  if (region === undefined) pieces.push(lines)
  else {
    // A region may be written in several pieces (imports at the top, code in a test): shown joined.
    const opening = new RegExp(`^\\s*(//|#) #region ${region}$`)
    for (let start = lines.findIndex((line) => opening.test(line)); start !== -1;) {
      const end = lines.findIndex((line, index) => index > start && /^\s*(\/\/|#) #endregion\b/.test(line))
      if (end === -1) break
      pieces.push(lines.slice(start + 1, end))
      start = lines.findIndex((line, index) => index > end && opening.test(line))
    }
    if (pieces.length === 0) {
      throw new Error(`Example \`${spec}\`: ${file} has no \`#region ${region}\` … \`#endregion\` pair.`)
    }
  }
  const shown = pieces.flatMap((piece) =>
    dedent(piece.filter((line) => !/^\s*(\/\/|#) #(end)?region\b/.test(line))),
  )
  const code = shown.join('\n')
  const text = language === 'ts' ? await publicImports(code, path) : code
  return fenced(language, [text])
}

/** `lines` without the indentation they all share (blank lines aside). */
function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0)
  const shared = indents.length === 0 ? 0 : Math.min(...indents)
  return lines.map((line) => line.slice(shared))
}

/** `code` with relative imports of the package's entries written as users import them. */
async function publicImports(code: string, path: string): Promise<string> {
  const entries = new Map(
    (await publicEntries()).map((entry) => [resolve(ROOT, entry.source), entry.importName]),
  )
  const internal = [resolve(ROOT, 'src') + sep, resolve(ROOT, 'matchers') + sep]
  return code.replace(/(from |import )'(\.{1,2}\/[^']+)'/g, (whole, keyword: string, specifier: string) => {
    const target = resolve(dirname(path), specifier).replace(/\.js$/, '.ts')
    const importName = entries.get(target)
    if (importName !== undefined) return `${keyword}'${importName}'`
    if (internal.some((folder) => target.startsWith(folder))) {
      throw new Error(
        `${relative(ROOT, path)} imports ${specifier}, which is not a public entry: import from one of package.json's exports.`,
      )
    }
    return whole
  })
}

/** The library's sources, whose doc comments are the API reference: every `.ts` file of src/ and matchers/, sorted. */
export async function referenceSources(): Promise<string[]> {
  const files: string[] = []
  for (const folder of ['src', 'matchers']) {
    for (const entry of await readdir(resolve(ROOT, folder), { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts')) files.push(join(entry.parentPath, entry.name))
    }
  }
  return files.sort()
}

/** A doc comment's line: its ` * ` prefix and its text. */
interface CommentLine {
  /** 0-based line of the source. */
  readonly line: number
  readonly prefix: string
  readonly text: string
}

/** The lines inside the source's doc comments (`/** … *\/`), without their ` * ` prefix. */
function commentLines(source: string): CommentLine[] {
  const found: CommentLine[] = []
  let inside = false
  for (const [line, text] of source.split('\n').entries()) {
    if (!inside) {
      inside = /^\s*\/\*\*(?!.*\*\/)/.test(text)
      continue
    }
    if (/^\s*\*\//.test(text)) {
      inside = false
      continue
    }
    const prefix = /^\s*\*( |$)/.exec(text)?.[0] ?? ''
    found.push({ line, prefix, text: text.slice(prefix.length) })
  }
  return found
}

/** The generated example blocks of a source's doc comments, in order. */
export function commentBlockNames(source: string): GeneratedBlock[] {
  return blockNames(
    commentLines(source)
      .map((comment) => comment.text)
      .join('\n'),
  ).filter((name) => name.startsWith('example:'))
}

/**
 * The 1-based lines of a source's doc comments that hold an example nothing generates: a code fence
 * outside the markers, or an `@example` tag whose next line is not a marker. An example in the API
 * reference is a region of an example file, as on the pages.
 */
export function unmarkedCommentExamples(source: string): number[] {
  const comments = commentLines(source)
  const fences = unmarkedFences(comments.map((comment) => comment.text).join('\n')).map(
    (index) => (comments[index - 1] as CommentLine).line + 1,
  )
  const tags = comments.flatMap((comment, index) =>
    /^@example\b/.test(comment.text) && !OPENING_MARKER.test(comments[index + 1]?.text ?? '')
      ? [comment.line + 1]
      : [],
  )
  return [...fences, ...tags].sort((a, b) => a - b)
}

/**
 * `source` with every example block of its doc comments replaced by `blocks`' text, written as
 * comment lines under the marker's own ` * ` prefix.
 */
export function fillCommentExamples(
  source: string,
  blocks: ReadonlyMap<string, string>,
  file: string,
): string {
  const lines = source.split('\n')
  const comments = commentLines(source)
  // From the last block up, so the line numbers of those above stay true.
  const openings = comments.flatMap((comment) => {
    const name = OPENING_MARKER.exec(comment.text)?.[1]
    return name === undefined ? [] : [{ ...comment, name }]
  })
  for (const opening of openings.reverse()) {
    const closing = comments.find(
      (comment) => comment.line > opening.line && comment.text === `<!-- /${opening.name} -->`,
    )
    if (closing === undefined)
      throw new Error(`${file}:${opening.line + 1}: \`<!-- ${opening.name} -->\` is not closed.`)
    const text = blocks.get(opening.name)
    if (text === undefined) throw new Error(`No generator makes the block \`${opening.name}\`.`)
    if (text.includes('*/'))
      throw new Error(`${file}: the example \`${opening.name}\` holds "*/", which would end the comment.`)
    const generated = text
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => (line === '' ? opening.prefix.trimEnd() : opening.prefix + line))
    lines.splice(opening.line + 1, closing.line - opening.line - 1, ...generated)
  }
  return lines.join('\n')
}

/** Rewrites the example blocks of the sources' doc comments; returns the sources that changed. */
export async function refreshReferenceExamples(): Promise<string[]> {
  const changed: string[] = []
  for (const file of await referenceSources()) {
    const before = await readFile(file, 'utf8')
    const names = commentBlockNames(before)
    if (names.length === 0) continue
    const after = fillCommentExamples(before, await generatedBlocks(names), relative(ROOT, file))
    if (after === before) continue
    await writeFile(file, after)
    changed.push(file)
  }
  return changed
}

/** A fenced code block of `lines`, ending with a newline. */
function fenced(language: string, lines: readonly string[]): string {
  return ['```' + language, ...lines, '```', ''].join('\n')
}

/** Where a block's text starts and ends, between its marker lines. */
function locate(readme: string, block: GeneratedBlock): { start: number; end: number } {
  const open = `<!-- ${block} -->\n`
  const close = `<!-- /${block} -->`
  const opened = readme.indexOf(open)
  const closed = readme.indexOf(close, opened)
  if (opened === -1 || closed === -1 || readme.indexOf(open, opened + 1) !== -1) {
    throw new Error(`The page needs exactly one \`${open.trim()}\` … \`${close}\` pair around the block.`)
  }
  return { start: opened + open.length, end: closed }
}

// Run as a script (not when a test imports the functions above).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const changed = [...(await refreshPages()), ...(await refreshReferenceExamples())]
  console.log(
    changed.length === 0
      ? 'README.md, docs/ and the examples of the API reference are up to date.'
      : `Generated blocks refreshed in: ${changed.map((path) => relative(ROOT, path)).join(', ')}`,
  )
}
