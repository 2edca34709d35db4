// The seeded benches' outputs that the pages' figures are filled from (bench/figures/): each is the
// output of its documented command, untouched since (its digest), and the fast ones print it again
// now, so a change to the code they measure fails here until `npm run figures` stores the new
// output and the pages show it.
import { readdir, readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DOCUMENTED_RUNS, commandLine } from '../../bench/runs.js'
import {
  SEEDED_RUNS,
  parseStoredOutput,
  runSeeded,
  seededPart,
  storedOutput,
  storedOutputPath,
  storedOutputText,
} from '../../scripts/bench-output.js'
import { ROOT } from '../../scripts/public-entries.js'

/**
 * Modules of bench/ that are not benches: the runner, its table, an agent the benches share, and the
 * judge bench's former construction, kept to print beside the current one.
 */
const NOT_BENCHES = ['index.ts', 'runs.ts', 'adapter-agents.ts', 'union-bound-judge-gate.ts']

describe('the documented bench runs', () => {
  it('cover every bench of bench/, each once', async () => {
    const benches = (await readdir(resolve(ROOT, 'bench')))
      .filter((file) => file.endsWith('.ts') && !NOT_BENCHES.includes(file))
      .sort()
    expect(benches.length).toBeGreaterThan(10)
    expect(DOCUMENTED_RUNS.map((run) => run.file).sort()).toEqual(benches)
  })

  it('print their command with its arguments and environment', () => {
    expect(commandLine({ name: 'x', file: 'x.ts', check: 'timed', measures: '' })).toBe('npx tsx bench/x.ts')
    expect(
      commandLine({
        name: 'x',
        file: 'x.ts',
        args: ['500'],
        env: { SEEDS: '3' },
        check: 'digest',
        measures: '',
      }),
    ).toBe('SEEDS=3 npx tsx bench/x.ts 500')
  })
})

describe('the stored outputs', () => {
  it.each(SEEDED_RUNS.map((run) => run.name))('of %s match their command and their digest', async (name) => {
    const run = SEEDED_RUNS.find((candidate) => candidate.name === name)!
    const output = await storedOutput(run)
    expect(output.length).toBeGreaterThan(100)
    expect(seededPart(run, output)).toBe(output)
  })

  it('are refused when a digit was edited or the arguments changed', async () => {
    const run = SEEDED_RUNS.find((candidate) => candidate.name === 'score-gate')!
    const text = await readFile(storedOutputPath(run), 'utf8')
    expect(parseStoredOutput(run, text)).toBe(await storedOutput(run))
    const edited = text.replace(/97\.5%/, '97.6%')
    expect(edited).not.toBe(text)
    expect(() => parseStoredOutput(run, edited)).toThrow(/does not match its digest.*--only score-gate/)
    expect(() => parseStoredOutput({ ...run, args: ['500'] }, text)).toThrow(
      /was not printed by `npx tsx bench\/score-gate.ts 500`/,
    )
    expect(storedOutputText(run, await storedOutput(run))).toBe(text)
  })

  it('leave out the parts of an output that depend on the machine', () => {
    const run = { name: 'x', file: 'x.ts', check: 'digest', measures: '', timed: [/\d+\.\d\d s/g] } as const
    expect(seededPart(run, 'warm: 0 calls in 0.71 s, cold 13.56 s')).toBe('warm: 0 calls in …, cold …')
  })
})

// The fast seeded benches run again (about 25 s together, one after the other, on a 2-core machine
// under load); the slow ones are re-run by `npm run figures -- --check`.
describe.each(SEEDED_RUNS.filter((run) => run.check === 'rerun').map((run) => run.name))('%s', (name) => {
  it('prints what bench/figures/ stores', { timeout: 120_000 }, async () => {
    const run = SEEDED_RUNS.find((candidate) => candidate.name === name)!
    expect(
      await runSeeded(run),
      `\`${commandLine(run)}\` prints otherwise now: \`npm run figures -- --only ${name}\``,
    ).toBe(await storedOutput(run))
  })
})
