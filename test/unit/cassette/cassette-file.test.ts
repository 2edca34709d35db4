import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { formatCassette, readCassetteFile, saveCassetteFile } from '../../../src/cassette/cassette-file.js'
import type { CassetteEntry, StepEntry } from '../../../src/cassette/schema.js'
import { InvalidFileError } from '../../../src/entries/errors.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cassette-file-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const key = (n: number) => `step:${n.toString(16).padStart(32, '0')}`

function entry(n: number): StepEntry {
  return {
    kind: 'step',
    name: `model#${n}`,
    model: 'gpt-test',
    stream: { seed: 1, rollout: n, step: 0 },
    summary: `answer ${n}`,
    request: { z: 1, a: [{ y: 2, b: 3 }] },
    action: { text: `answer ${n}`, finish: 'stop' },
  }
}

describe('the cassette file', () => {
  test('is written deterministically: entries by key, fields in schema order, JSON keys sorted', () => {
    const one = new Map<string, CassetteEntry>([
      [key(2), entry(2)],
      [key(1), entry(1)],
    ])
    const other = new Map<string, CassetteEntry>([
      [key(1), entry(1)],
      [key(2), entry(2)],
    ])
    const text = formatCassette(one)
    expect(formatCassette(other)).toBe(text)
    expect(text).toMatchSnapshot()
  })

  test('a bad file is an error naming the field, and the file is left as it was', async () => {
    const file = join(dir, 'bad.cassette.json')
    const bad = {
      schema: 'vitest-causal-replay/cassette@1',
      entries: { [key(1)]: { ...entry(1), stream: { seed: 1, rollout: -1, step: 0 } } },
    }
    await writeFile(file, JSON.stringify(bad))
    const error = await readCassetteFile(file).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidFileError)
    expect((error as Error).message.replace(dir, '<dir>')).toMatchInlineSnapshot(`
      "Invalid cassette in <dir>/bad.cassette.json:
      ✖ Too small: expected number to be >=0
        → at entries["step:00000000000000000000000000000001"].stream.rollout
      The cassette was left unchanged. Fix it, or delete it to record every call again."
    `)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(bad)
  })

  test('each distinct value is stored once, referenced by its digest from every entry that has it', () => {
    const text = formatCassette(
      new Map<string, CassetteEntry>(
        [1, 2, 3].map((n) => [key(n), { ...entry(n), action: { text: 'same' } }]),
      ),
    )
    const file = JSON.parse(text) as {
      entries: Record<string, { request: string; action: string }>
      values: object
    }
    const entries = Object.values(file.entries)
    // One request and one action, shared by the three entries.
    expect(Object.keys(file.values)).toHaveLength(2)
    expect(new Set(entries.map((stored) => stored.action)).size).toBe(1)
    expect(new Set(entries.map((stored) => stored.request)).size).toBe(1)
  })

  test('reads files of the first version, whose entries held their values inline', async () => {
    const file = join(dir, 'v1.cassette.json')
    const v1 = {
      schema: 'vitest-causal-replay/cassette@1',
      entries: { [key(1)]: entry(1), [key(2)]: entry(2) },
    }
    await writeFile(file, JSON.stringify(v1))
    const stored = await readCassetteFile(file)
    expect(stored.get(key(1))).toEqual(entry(1))
    expect(stored.get(key(2))).toEqual(entry(2))
    // Written back in the current version, the same entries come out.
    const current = join(dir, 'v1-rewritten.cassette.json')
    await saveCassetteFile(current, { put: stored, keep: undefined })
    expect(JSON.parse(await readFile(current, 'utf8'))).toMatchObject({
      schema: 'vitest-causal-replay/cassette@2',
    })
    expect(await readCassetteFile(current)).toEqual(stored)
  })

  test('a digest missing from values, or an unknown version, is an error naming the field', async () => {
    const file = join(dir, 'dangling.cassette.json')
    const written = JSON.parse(formatCassette(new Map([[key(1), entry(1)]]))) as {
      entries: Record<string, { action: string }>
      values: Record<string, unknown>
    }
    const { action } = written.entries[key(1)]!
    delete written.values[action]
    await writeFile(file, JSON.stringify(written))
    const dangling = await readCassetteFile(file).catch((caught: unknown) => caught as Error)
    expect(dangling).toBeInstanceOf(InvalidFileError)
    expect((dangling as Error).message.replace(dir, '<dir>').split('\n').slice(0, 2)).toEqual([
      `Invalid cassette in <dir>/dangling.cassette.json:`,
      `✖ entries["${key(1)}"].action: no value ${action} in values`,
    ])
    await writeFile(file, JSON.stringify({ ...written, schema: 'vitest-causal-replay/cassette@9' }))
    const unknown = await readCassetteFile(file).catch((caught: unknown) => caught as Error)
    expect((unknown as Error).message).toMatch(/→ at schema/)
  })

  test('saves merge with what is on disk: concurrent writers lose no entry', async () => {
    const file = join(dir, 'shared.cassette.json')
    await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        saveCassetteFile(file, { put: new Map([[key(n), entry(n)]]), keep: undefined }),
      ),
    )
    const stored = await readCassetteFile(file)
    expect([...stored.keys()].sort()).toEqual(Array.from({ length: 12 }, (_, n) => key(n)).sort())
  })

  test('a prune keeps only the entries it was told to keep, plus the new ones', async () => {
    const file = join(dir, 'prune.cassette.json')
    await saveCassetteFile(file, { put: new Map([1, 2, 3].map((n) => [key(n), entry(n)])), keep: undefined })
    await saveCassetteFile(file, { put: new Map([[key(4), entry(4)]]), keep: new Set([key(2)]) })
    expect([...(await readCassetteFile(file)).keys()]).toEqual([key(2), key(4)])
    // Nothing to change: not written.
    expect(await saveCassetteFile(file, { put: new Map([[key(4), entry(4)]]), keep: undefined })).toBe(false)
  })
})
