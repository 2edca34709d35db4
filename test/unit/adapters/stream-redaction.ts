import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { vi } from 'vitest'
import { openCassette, withCassette } from '../../../src/entries/cassette.js'
import { runRollouts } from '../../../src/entries/replay.js'
import type { Json } from '../../../src/entries/types.js'
import type { Agent, Trajectory } from '../../../src/index.js'

/** The API key the adapters' tests stream, and the two pieces the streams cut it into. */
export const STREAMED_KEY = 'sk-STREAM-91e0c4d7a2'
export const KEY_PIECES = ['sk-STREAM-91e0', 'c4d7a2'] as const
/** The tool arguments the tests' models stream: the key, cut between its pieces. */
export const ARGUMENTS = JSON.stringify({ apiKey: STREAMED_KEY, amount: 5 })
export const ARGUMENT_PIECES = [
  ARGUMENTS.slice(0, ARGUMENTS.indexOf(KEY_PIECES[1])),
  ARGUMENTS.slice(ARGUMENTS.indexOf(KEY_PIECES[1])),
] as const

/** A cold run of one rollout through a cassette, saved, and what the file stores. */
export interface RecordedRun {
  trajectory: Trajectory
  /** The cassette file's text. */
  text: string
  /** The actions its step entries store, in stream order. */
  actions: Json[]
}

/**
 * Runs `agent` once through a cassette at a fresh path (redacting `apiKey` when `redact`), saves
 * it, and reads back what it stores; `warm` runs the agent again through the saved file.
 */
export async function recordThroughCassette(
  agent: Agent<unknown, unknown>,
  redact: boolean,
): Promise<RecordedRun & { warm: () => Promise<Trajectory>; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'stream-redaction-'))
  const file = join(dir, 'agent.cassette.json')
  const run = async () => {
    // The modes under test are set here, whatever the environment running the suite says.
    vi.stubEnv('CAUSAL_REPLAY_CACHE', '')
    vi.stubEnv('CI', '')
    const cassette = await openCassette(file, redact ? { redact: ['apiKey'] } : {})
    vi.unstubAllEnvs()
    const [trajectory] = (await runRollouts(withCassette(agent, cassette), { rollouts: 1, seed: 3 }))
      .trajectories
    await cassette?.save()
    if (trajectory === undefined) throw new Error('runRollouts gave no trajectory')
    return trajectory
  }
  const trajectory = await run()
  const text = await readFile(file, 'utf8')
  const stored = JSON.parse(text) as {
    entries: Record<string, { kind: string; action?: string; stream: { step: number } }>
    values: Record<string, Json>
  }
  const actions = Object.values(stored.entries)
    .filter((entry) => entry.kind === 'step')
    .sort((a, b) => a.stream.step - b.stream.step)
    .map((entry) => stored.values[entry.action ?? ''] ?? null)
  return { trajectory, text, actions, warm: run, remove: () => rm(dir, { recursive: true, force: true }) }
}
