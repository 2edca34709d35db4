import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { lockFile } from '../../../src/files/file-lock.js'
import {
  BASELINE_SCHEMA,
  readBaselines,
  storedEntry,
  writeBaseline,
  type BaselineEntry,
} from '../../../src/verdict/baseline-file.js'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baseline-file-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

function entry(successes: number): BaselineEntry {
  return {
    rate: successes / 10,
    successes,
    n: 10,
    seed: 1,
    agent: 'support',
    predicate: 'call issue_refund',
    better: 'lower',
  }
}

const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']

describe('baseline files', () => {
  test('names of Object.prototype members are entries like any other: written, read back, looked up', async () => {
    const file = join(dir, 'a.rates.json')
    expect(PROTOTYPE_NAMES).toHaveLength(5)
    for (const [index, name] of PROTOTYPE_NAMES.entries()) await writeBaseline(file, name, entry(index))
    const text = await readFile(file, 'utf8')
    expect(Object.keys(JSON.parse(text).entries as object)).toEqual([...PROTOTYPE_NAMES].sort())
    const read = await readBaselines(file)
    for (const [index, name] of PROTOTYPE_NAMES.entries()) {
      expect(storedEntry(read, name)).toEqual(entry(index))
    }
    // Nothing leaked onto a prototype.
    expect(({} as Record<string, unknown>)['successes']).toBeUndefined()
  })

  test('a name not in the file is not found on the prototype', async () => {
    const file = join(dir, 'b.rates.json')
    await writeBaseline(file, 'gate 1', entry(3))
    const read = await readBaselines(file)
    for (const name of PROTOTYPE_NAMES) expect(storedEntry(read, name)).toBeNull()
    expect(storedEntry(read, 'gate 1')).toEqual(entry(3))
    expect(storedEntry(null, 'gate 1')).toBeNull()
  })

  test('a write waits for the lock another process holds, then merges what is on disk then', async () => {
    const file = join(dir, 'c.rates.json')
    await writeBaseline(file, 'first', entry(1))
    const release = await lockFile(file)
    let written = false
    const write = writeBaseline(file, 'mine', entry(2)).then(() => (written = true))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(written).toBe(false)
    // What the lock holder writes meanwhile is kept.
    const held = JSON.parse(await readFile(file, 'utf8')) as { entries: Record<string, BaselineEntry> }
    held.entries['theirs'] = entry(4)
    await writeFile(file, JSON.stringify(held))
    await release()
    await write
    const read = await readBaselines(file)
    expect(Object.keys(read!.entries)).toEqual(['first', 'mine', 'theirs'])
  })

  test('a corrupted file refuses the write, naming the file and the field, and stays byte-identical', async () => {
    const file = join(dir, 'd.rates.json')
    const corrupted = `{"schema":"${BASELINE_SCHEMA}","entries":{"one":{"rate":2}}}`
    await writeFile(file, corrupted)
    const error = await writeBaseline(file, 'two', entry(1)).catch((caught: unknown) => caught)
    expect((error as Error).name).toBe('InvalidFileError')
    expect((error as Error).message.replace(dir, '<dir>')).toMatch(
      /^Invalid baseline in <dir>\/d\.rates\.json:\n[\s\S]*→ at entries\.one\.rate[\s\S]*The baseline file was left unchanged\. Fix it, or delete it and run `vitest -u` to measure every entry anew\.$/,
    )
    expect(await readFile(file, 'utf8')).toBe(corrupted)
    await writeFile(file, '{"schema":')
    await expect(writeBaseline(file, 'two', entry(1))).rejects.toThrow(/d\.rates\.json is not valid JSON/)
    expect(await readFile(file, 'utf8')).toBe('{"schema":')
  })

  test('entries that are not an object of entries are named as such', async () => {
    const file = join(dir, 'e.rates.json')
    await writeFile(file, `{"schema":"${BASELINE_SCHEMA}","entries":[]}`)
    await expect(readBaselines(file)).rejects.toThrow(
      /expected an object of entries by name\n\s+→ at entries/,
    )
  })
})
