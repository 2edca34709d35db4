import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { check, defineAgent, never, rarely } from '../../../src/index.js'
import type { Json } from '../../../src/json.js'

let dir: string
beforeAll(async () => {
  vi.stubEnv('CAUSAL_REPLAY_CACHE', '')
  vi.stubEnv('CI', '')
  dir = await mkdtemp(join(tmpdir(), 'redact-artifact-'))
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await rm(dir, { recursive: true, force: true })
})

const EMAIL = 'ada.lovelace@example.com'
const API_KEY = 'sk-live-0123456789'

/**
 * A support agent whose ticket holds an e-mail address, and whose model step answers with a tool
 * call whose JSON-text arguments hold it and an API key; its meta's summary quotes the call, as the
 * adapters' do, and a tool echoes the address in plain text (not cached: in the reports only). It
 * refunds often: the claim fails and is attributed.
 */
const agent = defineAgent({
  name: 'support',
  input: { ticket: `Refund me, write to ${EMAIL}` },
  async run(input: { ticket: string }, ctx) {
    const lookup = await ctx.step('lookup', (rng) => ({ order: rng() < 0.5 ? 'A-1' : 'A-2' }), {
      context: { ticket: input.ticket },
    })
    const action = await ctx.step(
      'decide',
      (rng) => ({
        toolName: rng() < 0.8 ? 'refund' : 'escalate',
        input: JSON.stringify({ apiKey: API_KEY, to: EMAIL }),
      }),
      {
        context: { ticket: input.ticket, order: lookup.order },
        meta: (decided) => ({ summary: `${decided.toolName}(${decided.input})` }),
        model: 'sim-1',
      },
    )
    await ctx.tool('notify', { to: EMAIL, apiKey: API_KEY }, () => ({ sent: true, echo: `sent to ${EMAIL}` }))
    return action
  },
})

const refunds = (t: { output?: unknown }) =>
  (t.output as { toolName?: string } | undefined)?.toolName === 'refund'

/** Every file under `root`, with its text. */
async function filesUnder(root: string): Promise<Array<{ path: string; text: string }>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  const files = entries.filter((entry) => entry.isFile())
  return Promise.all(
    files.map(async (entry) => {
      const path = join(entry.parentPath, entry.name)
      return { path, text: await readFile(path, 'utf8') }
    }),
  )
}

describe('a check whose cassette redacts writes no secret in its reports', () => {
  test.each<{ form: string; redact: string[] | ((value: Json) => Json) }>([
    { form: 'a key list', redact: ['apiKey', 'to', 'ticket'] },
    {
      form: 'a function',
      redact: (value) =>
        JSON.parse(
          JSON.stringify(value)
            .replaceAll(/[\w.]+@[\w.]+\.com/g, '<email>')
            .replaceAll(/sk-live-\w+/g, '<key>'),
        ) as Json,
    },
  ])('$form', async ({ form, redact }) => {
    const root = join(dir, form.replaceAll(' ', '-'))
    const result = await check(agent, rarely(refunds, { atMost: 0.05, seed: 3 }), {
      cache: { file: join(root, 'support.cassette.json'), redact },
      reportDir: join(root, 'reports'),
    })
    expect(result.passed).toBe(false)
    // The artifact holds the failing run and its attribution: what would carry the secrets.
    expect(result.artifact.failing?.steps).toHaveLength(2)
    expect(result.artifact.attributionError ?? null).toBeNull()
    expect(result.attribution?.steps.length).toBeGreaterThan(0)
    expect(result.report?.html).toEqual(expect.any(String))
    const files = await filesUnder(root)
    expect(files.map((file) => file.path.slice(root.length + 1)).sort()).toEqual([
      expect.stringMatching(/^reports\/support\/.*\.html$/),
      expect.stringMatching(/^reports\/support\/.*\.json$/),
      'support.cassette.json',
    ])
    for (const file of files) {
      expect(file.text, file.path).not.toContain(EMAIL)
      expect(file.text, file.path).not.toContain(API_KEY)
    }
    expect(result.message).not.toContain(EMAIL)
    expect(JSON.stringify(result)).not.toMatch(/ada\.lovelace|sk-live-0/)
  })

  test('a redact function that throws fails the check, naming redact', async () => {
    await expect(
      check(agent, never(refunds, { rollouts: 5, seed: 3 }), {
        cache: {
          file: join(dir, 'throws', 'c.json'),
          redact: () => {
            throw new Error('boom')
          },
        },
      }),
    ).rejects.toThrow(/redact threw on a \w+: boom/)
  })
})

describe('an artifact', () => {
  test('keeps own keys named __proto__ in what it writes, without polluting anything', async () => {
    const answer = '{"__proto__":{"admin":true},"constructor":"c","prototype":"p","text":"hi"}'
    const protoAgent = defineAgent({
      name: 'proto',
      run: (_input: null, ctx) => ctx.step('answer', () => JSON.parse(answer) as Json),
    })
    const root = join(dir, 'proto')
    const result = await check(
      protoAgent.on(null),
      never(() => true, { rollouts: 2, seed: 1, attribute: false }),
      {
        reportDir: root,
      },
    )
    expect(result.passed).toBe(false)
    const [json] = (await filesUnder(root)).filter((file) => file.path.endsWith('.json'))
    expect(JSON.stringify(JSON.parse(json!.text).failing.steps[0].action)).toBe(answer)
    expect(({} as { admin?: boolean }).admin).toBeUndefined()
  })
})
