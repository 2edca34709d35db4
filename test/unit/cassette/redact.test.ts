import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { formatCassette, readCassetteFile } from '../../../src/cassette/cassette-file.js'
import { redactorOf, REDACTED } from '../../../src/cassette/redact.js'
import { redactEntry } from '../../../src/cassette/redact-entry.js'
import { RemovedTexts } from '../../../src/cassette/removed-texts.js'
import type { StepEntry } from '../../../src/cassette/schema.js'
import { openCassette, withCassette } from '../../../src/entries/cassette.js'
import { runRollouts } from '../../../src/entries/replay.js'
import { defineAgent } from '../../../src/index.js'
import type { Json, JsonObject } from '../../../src/json.js'

let dir: string
beforeAll(async () => {
  vi.stubEnv('CAUSAL_REPLAY_CACHE', '')
  vi.stubEnv('CI', '')
  dir = await mkdtemp(join(tmpdir(), 'cassette-redact-unit-'))
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await rm(dir, { recursive: true, force: true })
})

describe('a key list', () => {
  const redact = redactorOf(['apiKey', 'authorization'])!

  test('redacts keys inside strings that hold JSON (tool-call arguments), at any depth', () => {
    const action: Json = {
      content: [{ type: 'tool-call', toolName: 'charge', input: '{"apiKey":"sk-live-1","amount":5}' }],
      nested: JSON.stringify({ call: JSON.stringify({ Authorization: 'Bearer tok-9' }) }),
    }
    const redacted = redact(action, 'action') as { content: Array<{ input: string }>; nested: string }
    expect(JSON.parse(redacted.content[0]!.input)).toEqual({ apiKey: REDACTED, amount: 5 })
    expect(JSON.parse(JSON.parse(redacted.nested).call)).toEqual({ Authorization: REDACTED })
    expect(JSON.stringify(redacted)).not.toMatch(/sk-live-1|tok-9/)
  })

  test('leaves what holds no such key as it is: the same object, and JSON text byte for byte', () => {
    const action: Json = { text: '{ "city" :  "Lisbon" }', list: ['[1, 2]', 'not {json'] }
    expect(redact(action, 'action')).toBe(action)
  })

  test('keeps own keys named __proto__, constructor and prototype, and pollutes nothing', () => {
    const action = JSON.parse(
      '{"__proto__":{"admin":true,"apiKey":"sk-1"},"constructor":{"apiKey":"sk-2"},"prototype":1}',
    ) as Json
    const redacted = redact(action, 'action') as JsonObject
    expect(Object.keys(redacted)).toEqual(['__proto__', 'constructor', 'prototype'])
    expect(JSON.stringify(redacted)).toBe(
      '{"__proto__":{"admin":true,"apiKey":"[redacted]"},"constructor":{"apiKey":"[redacted]"},"prototype":1}',
    )
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype)
    expect(({} as { admin?: boolean }).admin).toBeUndefined()
  })
})

describe('a redact function', () => {
  test('that throws is named, with the part and its message', () => {
    const redact = redactorOf(() => {
      throw new Error('no emails here')
    })!
    expect(() => redact({ a: 1 }, 'request')).toThrow(/^redact threw on a request: no emails here\./)
  })

  test('that returns something that is not JSON is named, with what it returned', () => {
    expect(() => redactorOf(() => undefined as unknown as Json)!({ a: 1 }, 'action')).toThrow(
      /^redact returned undefined for a action, which is not a JSON value/,
    )
    expect(() => redactorOf(() => ({ when: new Date(0) }) as unknown as Json)!({}, 'meta')).toThrow(
      /redact returned a Date instance at \.when .* for a meta/,
    )
  })

  test('is handed a copy: what it changes in place is not the recorded value', () => {
    const recorded = { email: 'ada@example.com' }
    const redact = redactorOf((value) => {
      ;(value as JsonObject)['email'] = '<email>'
      return value
    })!
    expect(redact(recorded, 'action')).toEqual({ email: '<email>' })
    expect(recorded).toEqual({ email: 'ada@example.com' })
  })
})

describe('RemovedTexts', () => {
  test('scrubs what a key list took out of JSON-text arguments from a summary that quotes them', () => {
    const redact = redactorOf(['apiKey'])!
    const raw: Json = { input: '{"apiKey":"sk-\\"quoted\\"-1","city":"Lisbon"}' }
    const removed = new RemovedTexts()
    removed.note(raw, redact(raw, 'action'))
    // The summary quotes the arguments as JSON text: the secret is there escaped.
    expect(removed.scrub('charge({"apiKey":"sk-\\"quoted\\"-1","city":"Lisbon"})')).toBe(
      'charge({"apiKey":"[redacted]","city":"Lisbon"})',
    )
    expect(removed.scrub('the key is sk-"quoted"-1')).toBe('the key is [redacted]')
  })

  test('takes what a function changed inside a string, not the whole string', () => {
    const redact = redactorOf((value) =>
      JSON.parse(JSON.stringify(value).replaceAll(/\w+@\w+\.com/g, '<email>')),
    )!
    const raw: Json = { message: 'Please write to ada@example.com today.' }
    const removed = new RemovedTexts()
    removed.note(raw, redact(raw, 'request'))
    expect(removed.scrub('write to ada@example.com')).toBe('write to [redacted]')
  })

  test('does not scrub values shorter than 4 characters from other text', () => {
    const removed = new RemovedTexts()
    removed.note({ pin: '123' }, { pin: REDACTED })
    expect(removed.scrub('step 123')).toBe('step 123')
  })
})

describe('a redacted entry', () => {
  test("has its meta and summary made again from the redacted action by the step's meta function", () => {
    const describe = (action: Json): JsonObject => ({
      summary: `charge(${(action as { input: string }).input})`,
      inputTokens: 3,
    })
    const action: Json = { input: '{"apiKey":"sk-live-1"}' }
    const entry: StepEntry = {
      kind: 'step',
      name: 'model',
      stream: { seed: 1, rollout: 0, step: 0 },
      summary: 'charge({"apiKey":"sk-live-1"})',
      action,
      meta: describe(action),
    }
    const redacted = redactEntry(entry, redactorOf(['apiKey'])!, { meta: describe })
    expect(redacted).toMatchObject({
      summary: 'charge({"apiKey":"[redacted]"})',
      meta: { summary: 'charge({"apiKey":"[redacted]"})', inputTokens: 3 },
    })
    // Without the function, or when it fails on the redacted action, the summary goes.
    const failing = redactEntry(entry, redactorOf(['apiKey'])!, {
      meta: () => {
        throw new Error('cannot read it back')
      },
    })
    expect(failing).toMatchObject({
      summary: '{"input":"{\\"apiKey\\":\\"[redacted]\\"}"}',
      meta: { inputTokens: 3 },
    })
    expect(JSON.stringify(failing)).not.toContain('sk-live-1')
  })
})

describe('a cassette', () => {
  test("keeps a secret out of the entry's summary (no meta: the start of the action)", async () => {
    const file = join(dir, 'summary.cassette.json')
    const agent = defineAgent({
      name: 'caller',
      run: (_input: null, ctx) =>
        ctx.step('call', () => ({ authorization: 'Bearer SECRET-123', tool: 'lookup' }), { cache: true }),
    })
    const cassette = await openCassette(file, { redact: ['authorization'] })
    await runRollouts(withCassette(agent.on(null), cassette), { rollouts: 2, seed: 1 })
    await cassette!.save()
    const text = await readFile(file, 'utf8')
    expect(text).not.toContain('SECRET-123')
    expect(text).toContain('"summary": "{\\"authorization\\":\\"[redacted]\\",\\"tool\\":\\"lookup\\"}"')
  })

  test('with __proto__ keys: the file keeps them, and a warm run gives what the cold run did', async () => {
    const file = join(dir, 'proto.cassette.json')
    const calls = { n: 0 }
    const agent = defineAgent({
      name: 'proto',
      run: (_input: null, ctx) =>
        ctx.step(
          'call',
          () => {
            calls.n++
            return JSON.parse(
              '{"__proto__":{"admin":true},"constructor":"c","prototype":"p","text":"hi"}',
            ) as Json
          },
          { cache: true, context: JSON.parse('{"__proto__":{"role":"system"},"q":"x"}') as Json },
        ),
    })
    const run = async () => {
      const cassette = await openCassette(file)
      const set = await runRollouts(withCassette(agent.on(null), cassette), { rollouts: 2, seed: 1 })
      await cassette!.save()
      return set.trajectories.map((trajectory) => JSON.stringify(trajectory.output))
    }
    const cold = await run()
    expect(cold[0]).toBe('{"__proto__":{"admin":true},"constructor":"c","prototype":"p","text":"hi"}')
    const warm = await run()
    expect(calls.n).toBe(2)
    expect(warm).toEqual(cold)
    const entries = [...(await readCassetteFile(file)).values()] as StepEntry[]
    expect(entries).toHaveLength(2)
    expect(Object.keys(entries[0]!.action as object)).toEqual([
      '__proto__',
      'constructor',
      'prototype',
      'text',
    ])
    expect(Object.keys(entries[0]!.request as object)).toEqual(['__proto__', 'q'])
    // Written again, the same bytes.
    expect(formatCassette(await readCassetteFile(file))).toBe(await readFile(file, 'utf8'))
    expect(({} as { admin?: boolean }).admin).toBeUndefined()
  })
})
