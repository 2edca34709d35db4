// Keeps the README's Quick start honest. Its test file is built from examples/quick-start/support.ts
// (the one copy of the agent), "Reading the output" is what that test prints when it fails, and the
// trajectory shown is that failure's run. `npm run readme` rewrites the blocks; test/readme.test.ts
// fails when the README differs, so a change to the agent, the message or the trajectory's shape
// reaches the README only as a deliberate refresh.
//
//   npx tsx scripts/readme-output.ts
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { supportAgent } from '../examples/quick-start/support.js'
import { calledTool, check, rarely } from '../src/index.js'
import { record } from '../src/entries/replay.js'

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

/** The README blocks this script owns, each between `<!-- name -->` and `<!-- /name -->`. */
export type ReadmeBlock = 'quick-start:code' | 'quick-start:output' | 'quick-start:trajectory'

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
export function readmeBlock(readme: string, block: ReadmeBlock): string {
  const { start, end } = locate(readme, block)
  return readme.slice(start, end)
}

/** `readme` with a block's text replaced by `content`. */
export function replaceReadmeBlock(readme: string, block: ReadmeBlock, content: string): string {
  const { start, end } = locate(readme, block)
  return readme.slice(0, start) + content + readme.slice(end)
}

/** Rewrites the README's generated blocks; returns whether anything changed. */
export async function refreshReadme(path: string = README_PATH): Promise<boolean> {
  const before = await readFile(path, 'utf8')
  const blocks = await quickStartBlocks()
  let after = before
  for (const [block, content] of Object.entries(blocks) as Array<[ReadmeBlock, string]>) {
    after = replaceReadmeBlock(after, block, content)
  }
  if (after === before) return false
  await writeFile(path, after)
  return true
}

/** A fenced code block of `lines`, ending with a newline. */
function fenced(language: string, lines: readonly string[]): string {
  return ['```' + language, ...lines, '```', ''].join('\n')
}

/** Where a block's text starts and ends, between its marker lines. */
function locate(readme: string, block: ReadmeBlock): { start: number; end: number } {
  const open = `<!-- ${block} -->\n`
  const close = `<!-- /${block} -->`
  const opened = readme.indexOf(open)
  const closed = readme.indexOf(close, opened)
  if (opened === -1 || closed === -1 || readme.indexOf(open, opened + 1) !== -1) {
    throw new Error(`README.md needs exactly one \`${open.trim()}\` … \`${close}\` pair around the block.`)
  }
  return { start: opened + open.length, end: closed }
}

// Run as a script (not when a test imports the functions above).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const changed = await refreshReadme()
  console.log(changed ? 'README.md: the Quick start blocks were refreshed.' : 'README.md is up to date.')
}
