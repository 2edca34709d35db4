import { mkdtemp, readFile, rm, writeFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineAgent, type Trajectory } from '../../../src/index.js'
import { hold, readTrajectory, record, replay, writeTrajectory } from '../../../src/entries/replay.js'
import { InvalidTrajectoryError } from '../../../src/entries/errors.js'
import { chainAgent } from '../agents.js'

let dir: string
let factual: Trajectory

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'causal-replay-trajectory-'))
  factual = await record(chainAgent().agent.on({ steps: 3 }), { seed: 12, rollout: 2 })
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function readError(file: string): Promise<InvalidTrajectoryError> {
  const error = await readTrajectory(file).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(InvalidTrajectoryError)
  expect((error as InvalidTrajectoryError).file).toBe(file)
  return error as InvalidTrajectoryError
}

/** The recording as JSON with one edit applied. */
async function writeEdited(name: string, edit: (value: Record<string, any>) => void): Promise<string> {
  const value = JSON.parse(JSON.stringify(factual)) as Record<string, any>
  edit(value)
  const file = join(dir, name)
  await writeFile(file, JSON.stringify(value))
  return file
}

describe('writeTrajectory / readTrajectory', () => {
  it('round-trips a recording exactly (same JSON text, same key order)', async () => {
    const file = join(dir, 'nested', 'deeper', 'factual.json')
    await writeTrajectory(file, factual)
    const back = await readTrajectory(file)
    expect(back).toEqual(factual)
    expect(JSON.stringify(back)).toBe(JSON.stringify(factual))
    expect(await readFile(file, 'utf8')).toBe(`${JSON.stringify(factual, null, 2)}\n`)
  })

  it('round-trips replayed trajectories with every optional field, byte for byte', async () => {
    // An agent with costs and meta, replayed after a change so that a held step diverges.
    const make = (prompt: string) =>
      defineAgent({
        name: 'priced',
        input: { q: 'refund?' },
        async run(input, ctx) {
          const a = await ctx.step('plan', (rng) => rng(), { context: input, costUsd: () => 0.25 })
          return ctx.step('answer', (rng) => (rng() < a ? 'yes' : 'no'), {
            context: { prompt },
            meta: (action) => ({ model: 'm-1', tokens: action.length }),
          })
        },
      })
    const recorded = await record(make('v1'), { seed: 1 })
    const [replayed] = (await replay(make('v2'), recorded, hold([1]), { rollouts: 1, seed: 1 })).trajectories
    expect(replayed).toMatchObject({
      intervention: 'hold([1])',
      replay: { heldSteps: 1, matchedSteps: 0 },
      costUsd: 0.25,
    })
    expect(replayed!.steps[1]).toMatchObject({ diverged: true, meta: { model: 'm-1' } })
    for (const trajectory of [recorded, replayed!]) {
      const file = join(dir, `full-${trajectory.rollout}-${trajectory.intervention ?? 'none'}.json`)
      await writeTrajectory(file, trajectory)
      expect(JSON.stringify(await readTrajectory(file))).toBe(JSON.stringify(trajectory))
    }
  })
})

describe('a corrupted trajectory file', () => {
  it('with bad JSON: names the file and says it is not JSON', async () => {
    const file = join(dir, 'truncated.json')
    await writeFile(file, JSON.stringify(factual).slice(0, 80))
    const error = await readError(file)
    expect(error.message).toBe(`trajectory file ${file} is not valid JSON (line 1, column 81).`)
  })

  it('with bad JSON: says where, never quoting the file (a path may point at a secret)', async () => {
    const file = join(dir, 'secret.json')
    await writeFile(file, '{\n  "a": 1,\n  oops: "sk-SECRET"\n}')
    expect((await readError(file)).message).toBe(
      `trajectory file ${file} is not valid JSON (line 3, column 3).`,
    )
    // A file that is not JSON from its first byte: V8 quotes its start, this message does not.
    const key = join(dir, 'key.json')
    await writeFile(key, 'sk-SECRET-KEY-1234567890\n')
    const error = await readError(key)
    expect(error.message).toBe(`trajectory file ${key} is not valid JSON.`)
  })

  it('that does not exist: names the file', async () => {
    const file = join(dir, 'missing.json')
    expect((await readError(file)).message).toBe(
      `Cannot read trajectory file ${file}: the file does not exist.`,
    )
  })

  it('with a missing field: names the field and the file', async () => {
    const file = await writeEdited('no-seed.json', (t) => delete t.seed)
    const error = await readError(file)
    expect(error.message).toContain(`Invalid trajectory in ${file}:`)
    expect(error.message).toMatch(/expected number, received undefined\s+→ at seed/)
  })

  it('with a wrong type deep inside a step: names the path to it', async () => {
    const file = await writeEdited('deep.json', (t) => {
      t.steps[1].observations[0].tool = 42
    })
    const error = await readError(file)
    expect(error.message).toContain(`Invalid trajectory in ${file}:`)
    expect(error.message).toMatch(
      /expected string, received number\s+→ at steps\[1\]\.observations\[0\]\.tool/,
    )
  })

  it('with several problems: names each path', async () => {
    const file = await writeEdited('several.json', (t) => {
      t.schema = 'vitest-causal-replay/trajectory@0'
      t.steps[2].source = 'guessed'
      t.steps[0].index = -1
    })
    const message = (await readError(file)).message
    expect(message).toMatch(/→ at schema/)
    expect(message).toMatch(/→ at steps\[2\]\.source/)
    expect(message).toMatch(/→ at steps\[0\]\.index/)
  })

  it('whose top level is not an object: says so', async () => {
    const file = join(dir, 'array.json')
    await writeFile(file, '[]')
    expect((await readError(file)).message).toMatch(/expected object, received array/)
  })
})

describe('writeTrajectory of an invalid value', () => {
  it('throws, naming the field, and does not overwrite the existing file or leave temporaries', async () => {
    const file = join(dir, 'keep.json')
    await writeTrajectory(file, factual)
    const before = await readFile(file, 'utf8')
    const broken = {
      ...factual,
      steps: [{ ...factual.steps[0]!, action: undefined }],
    } as unknown as Trajectory
    const error = await writeTrajectory(file, broken).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(InvalidTrajectoryError)
    expect((error as Error).message).toMatch(/^Invalid trajectory:\n/)
    expect((error as Error).message).toMatch(/→ at steps\[0\]\.action/)
    expect(await readFile(file, 'utf8')).toBe(before)
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('two concurrent writes of one file both land whole (unique temporaries)', async () => {
    const file = join(dir, 'race.json')
    const other = { ...factual, rollout: 99 }
    await Promise.all([writeTrajectory(file, factual), writeTrajectory(file, other)])
    const back = await readTrajectory(file)
    expect([2, 99]).toContain(back.rollout)
  })
})
