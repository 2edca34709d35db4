import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { formatStaleCassetteLine, formatStaleCassetteMarkdown } from '../../../src/cassette/stale-warning.js'
import { check, defineAgent, never } from '../../../src/index.js'
import { runRollouts } from '../../../src/entries/replay.js'
import { openCassette, withCassette } from '../../../src/entries/cassette.js'

let dir: string
beforeAll(async () => {
  vi.stubEnv('CAUSAL_REPLAY_CACHE', '')
  vi.stubEnv('CI', '')
  dir = await mkdtemp(join(tmpdir(), 'cassette-redact-'))
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await rm(dir, { recursive: true, force: true })
})

/** An agent whose model call carries a secret in its request and gets one back in its response. */
function secretAgent(calls: { n: number }, system = 'Escalate late orders.') {
  return defineAgent({
    name: 'secret',
    input: { message: 'late order, email me at ada@example.com' },
    async run(input: { message: string }, ctx) {
      return ctx.step(
        'decide',
        (rng) => {
          calls.n++
          return { choice: rng() < 0.5 ? 'refund' : 'escalate', session: { Token: 'tok-live-123' } }
        },
        {
          context: { system, message: input.message, headers: { Authorization: 'Bearer sk-secret' } },
          model: 'sim-1',
          meta: () => ({ summary: 'decided', apiKey: 'sk-meta' }),
        },
      )
    },
  })
}

describe('redact', () => {
  test('keys are redacted wherever they occur before the file is written, and the next run still hits', async () => {
    const file = join(dir, 'keys.cassette.json')
    const calls = { n: 0 }
    const cold = await openCassette(file, { redact: ['authorization', 'token', 'apiKey'] })
    const first = await runRollouts(withCassette(secretAgent(calls), cold), { rollouts: 4, seed: 1 })
    // The run itself saw the real values.
    expect(first.trajectories[0]!.output).toMatchObject({ session: { Token: 'tok-live-123' } })
    await cold?.save()
    const text = await readFile(file, 'utf8')
    expect(text).not.toMatch(/sk-secret|tok-live-123|sk-meta/)
    expect(text).toContain('"Authorization":"[redacted]"')
    expect(calls.n).toBe(4)

    const warm = await openCassette(file, { redact: ['authorization', 'token', 'apiKey'] })
    const second = await runRollouts(withCassette(secretAgent(calls), warm), { rollouts: 4, seed: 1 })
    expect(calls.n).toBe(4)
    expect(warm?.counts).toEqual({ hits: 4, reused: 0, misses: 0 })
    // A later run reads what was stored: the redacted response.
    expect(second.trajectories[0]!.output).toMatchObject({ session: { Token: '[redacted]' } })
    expect(second.trajectories.map((t) => (t.output as { choice: string }).choice)).toEqual(
      first.trajectories.map((t) => (t.output as { choice: string }).choice),
    )
  })

  test('a function is applied to each part, and an offline miss diffs the redacted requests', async () => {
    const file = join(dir, 'function.cassette.json')
    const parts = new Set<string>()
    const redact = (value: unknown, part: string) => {
      parts.add(part)
      return JSON.parse(JSON.stringify(value).replaceAll(/[\w.]+@[\w.]+/g, '<email>'))
    }
    const calls = { n: 0 }
    const result = await check(
      secretAgent(calls),
      never((t) => t.output === null, { rollouts: 3, seed: 2 }),
      {
        cache: { file, redact },
      },
    )
    expect(result.passed).toBe(true)
    expect(parts).toEqual(new Set(['request', 'action', 'meta']))
    const text = await readFile(file, 'utf8')
    expect(text).not.toContain('ada@example.com')
    expect(text).toContain('<email>')

    const offline = await openCassette(file, { mode: 'offline', redact })
    const set = await runRollouts(withCassette(secretAgent(calls, 'Never refund.'), offline), {
      rollouts: 1,
      seed: 2,
    })
    // Only the edited prompt differs: the redacted message is compared redacted.
    expect(set.trajectories[0]!.error!.message).toContain('system: "Escalate late orders." → "Never refund."')
    expect(set.trajectories[0]!.error!.message).not.toContain('message:')
  })

  test('a bad redact option names the field', async () => {
    await expect(
      check(
        secretAgent({ n: 0 }),
        never(() => false, { rollouts: 1 }),
        {
          cache: { file: join(dir, 'bad.json'), redact: 'authorization' as unknown as string[] },
        },
      ),
    ).rejects.toThrow(/cache\.redact/)
  })
})

describe('a stale cassette in CI', () => {
  test('misses called live and not written are counted, with the first difference and what to do', async () => {
    const file = join(dir, 'stale.cassette.json')
    const calls = { n: 0 }
    const cold = await openCassette(file)
    await runRollouts(withCassette(secretAgent(calls), cold), { rollouts: 3, seed: 4 })
    await cold?.save()
    expect(cold?.staleness()).toBeNull()

    const ci = await openCassette(file, { write: 'none' })
    await runRollouts(withCassette(secretAgent(calls, 'Never refund.'), ci), { rollouts: 3, seed: 4 })
    const stale = ci!.staleness()!
    expect(stale.misses).toBe(3)
    const shown = { ...stale, file: 'stale.cassette.json' }
    expect(formatStaleCassetteLine(shown, process.cwd())).toMatchInlineSnapshot(
      `"vitest-causal-replay: stale cassette stale.cassette.json: 3 calls were not in it and were made live, not written (first difference: step 0 "decide" system: "Escalate late orders." → "Never refund."); run locally and commit the cassette, or set CAUSAL_REPLAY_CACHE=offline in CI to fail instead."`,
    )
    expect(formatStaleCassetteMarkdown(shown, process.cwd())).toMatchInlineSnapshot(`
      "> [!WARNING]
      > **Stale cassette** \`stale.cassette.json\`: 3 calls were not in it and were made live, not written. First difference: \`step 0 "decide" system: "Escalate late orders." → "Never refund."\`. To fix: run locally and commit the cassette, or set \`CAUSAL_REPLAY_CACHE=offline\` in CI to fail instead.

      "
    `)
    // Nothing dropped: no warning, whatever the mode.
    const unchanged = await openCassette(file, { write: 'none' })
    await runRollouts(withCassette(secretAgent(calls), unchanged), { rollouts: 3, seed: 4 })
    expect(unchanged?.staleness()).toBeNull()
  })
})
