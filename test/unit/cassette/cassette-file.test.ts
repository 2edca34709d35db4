import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { formatCassette, readCassetteFile, saveCassetteFile } from '../../../src/cassette/cassette-file.js'
import type { CassetteEntry, StepEntry } from '../../../src/cassette/schema.js'
import { InvalidFileError } from '../../../src/index.js'

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
