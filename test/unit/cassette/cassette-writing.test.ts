import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import lockfile from 'proper-lockfile'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { formatCassette, readCassetteFile, saveCassetteFile } from '../../../src/cassette/cassette-file.js'
import type { CassetteEntry, StepEntry, ToolEntry } from '../../../src/cassette/schema.js'
import { CassetteTooLargeError } from '../../../src/entries/errors.js'
import type { Json } from '../../../src/json.js'
import { formatCassetteAsOneString } from './one-string-cassette.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cassette-writing-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const key = (kind: 'step' | 'tool', n: number) => `${kind}:${n.toString(16).padStart(32, '0')}`

function step(n: number, extra: Partial<StepEntry> = {}): StepEntry {
  return {
    kind: 'step',
    name: `model#${n}`,
    model: 'gpt-test',
    // Stream keys out of schema order: the file has them in schema order either way.
    stream: { step: n % 3, rollout: n, seed: 7 },
    summary: `answer ${n} — “quoted”`,
    request: { z: 1, messages: [{ role: 'user', content: `question ${n} 😀` }], a: [{ y: 2, b: 3 }] },
    action: { text: `answer ${n}`, finish: 'stop', usage: { output: 3, input: 10 } },
    ...extra,
  }
}

function tool(n: number, result?: Json): ToolEntry {
  const entry: ToolEntry = {
    kind: 'tool',
    tool: 'lookup',
    stream: { seed: 7, rollout: n, step: -1, position: 0 },
    args: { orderId: `A-${n}`, options: { verbose: true, depth: 2 } },
  }
  if (result !== undefined) entry.result = result
  return entry
}

/** Ordinary cassettes: shared values, tools with and without result, meta, a judge, no request. */
const ordinaryCassettes: Array<[string, Map<string, CassetteEntry>]> = [
  ['empty', new Map()],
  [
    'steps and tools, some values shared',
    new Map<string, CassetteEntry>([
      [key('step', 3), step(3)],
      [key('step', 1), step(1, { meta: { summary: 'answer 1', usage: { b: 2, a: 1 } } })],
      [key('tool', 2), tool(2, { status: 'shipped', eta: null, items: [3, 1, 2] })],
      [key('tool', 1), tool(1)],
      [
        key('step', 2),
        step(2, { action: { text: 'answer 1', finish: 'stop', usage: { output: 3, input: 10 } } }),
      ],
    ]),
  ],
  [
    'a judge step without model or request, escapes in every kind of string',
    new Map<string, CassetteEntry>([
      [
        key('step', 9),
        {
          kind: 'step',
          name: 'judge "tone"\n',
          stream: { seed: -3, rollout: 0, step: 4, judge: 'tone' },
          summary: '\u2028 <script> \\',
          action: ['yes', 0.25, -0, 1e21, { '': 'empty key', 'b\u0000': 'nul' }],
        },
      ],
    ]),
  ],
]

describe('the chunked cassette writer', () => {
  test.each(ordinaryCassettes)('writes the bytes of the one-string serializer: %s', async (name, entries) => {
    const expected = formatCassetteAsOneString(entries)
    expect(formatCassette(entries)).toBe(expected)
    const file = join(dir, `${name.replace(/\W+/g, '-')}.cassette.json`)
    await saveCassetteFile(file, { put: entries, keep: undefined })
    if (entries.size === 0) expect(existsSync(file)).toBe(false)
    else expect(await readFile(file, 'utf8')).toBe(expected)
  })

  test('writes a value over a chunk (a 3 MB tool result) as the one-string serializer did, and reads it back', async () => {
    const page = `${'lorem ipsum 😀 "quoted" '.repeat(130_000)}end`
    const entries = new Map<string, CassetteEntry>([
      [key('tool', 1), tool(1, { body: page, status: 200 })],
      [key('step', 1), step(1)],
    ])
    const file = join(dir, 'large.cassette.json')
    expect(await saveCassetteFile(file, { put: entries, keep: undefined })).toBe(true)
    expect(await readFile(file, 'utf8')).toBe(formatCassetteAsOneString(entries))
    const read = await readCassetteFile(file)
    expect((read.get(key('tool', 1)) as ToolEntry).result).toEqual({ body: page, status: 200 })
    // The same entries again: the bytes on disk are unchanged, and the save says so.
    expect(await saveCassetteFile(file, { put: entries, keep: undefined })).toBe(false)
  })
})

describe('a cassette too large to read back', () => {
  const big = (n: number, size: number) => tool(n, 'x'.repeat(size))

  test('leaves out the largest call of this run, names it, and writes the others', async () => {
    const file = join(dir, 'too-large.cassette.json')
    const entries = new Map<string, CassetteEntry>([
      [key('tool', 1), big(1, 600)],
      [key('tool', 2), big(2, 5_000)],
      [key('step', 1), step(1)],
    ])
    const error = await saveCassetteFile(file, { put: entries, keep: undefined }, 3_000).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(CassetteTooLargeError)
    const message = (error as Error).message
    expect(message).toContain(`Too large to store in the cassette ${file}`)
    expect(message).toContain('tool "lookup" at step -1, position 0 (seed 7, rollout 2): 0.0 M characters')
    expect(message).not.toContain('rollout 1)')
    expect(message).toContain('the file holds the other 2 entries')
    const written = await readCassetteFile(file)
    expect([...written.keys()].sort()).toEqual([key('step', 1), key('tool', 1)])
  })

  test('writes no file when its only call is too large', async () => {
    const file = join(dir, 'only-too-large.cassette.json')
    const error = await saveCassetteFile(
      file,
      { put: new Map([[key('tool', 1), big(1, 5_000)]]), keep: undefined },
      3_000,
    ).catch((e: unknown) => e)
    expect((error as Error).message).toContain('the file holds the other 0 entries')
    expect(existsSync(file)).toBe(false)
  })

  test('writes nothing, and says so, when even the stored entries do not fit', async () => {
    const file = join(dir, 'stored-too-large.cassette.json')
    await saveCassetteFile(file, { put: new Map([[key('tool', 1), big(1, 4_000)]]), keep: undefined })
    const before = await readFile(file, 'utf8')
    const error = await saveCassetteFile(
      file,
      { put: new Map([[key('step', 1), step(1)]]), keep: undefined },
      3_000,
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CassetteTooLargeError)
    expect((error as Error).message).toMatch(/even without this run's largest calls; nothing was written/)
    expect((error as Error).message).toContain('step 1 "model#1" (seed 7, rollout 1)')
    expect(await readFile(file, 'utf8')).toBe(before)
  })
})

describe('temporary files of a save', () => {
  /** The pid of a process that has exited. */
  function deadPid(): number {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
    return Number(child.stdout.toString())
  }

  test('a save removes those of writers that are gone, and keeps those of running ones', async () => {
    const folder = join(dir, 'stale')
    await mkdir(folder)
    const file = join(folder, 'agent.test.js.cassette.json')
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'])
    try {
      const dead = `agent.test.js.cassette.json.${deadPid()}.1796314355107.0.tmp`
      const running = `agent.test.js.cassette.json.${alive.pid}.1796314355107.0.tmp`
      const other = `other.test.js.cassette.json.${deadPid()}.1796314355107.0.tmp`
      for (const name of [dead, running, other]) await writeFile(join(folder, name), '{"schema":')
      await saveCassetteFile(file, { put: new Map([[key('step', 1), step(1)]]), keep: undefined })
      expect((await readdir(folder)).sort()).toEqual(['agent.test.js.cassette.json', other, running].sort())
    } finally {
      alive.kill()
    }
  })
})

describe('a cassette directory that cannot be written', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  test('fails at once, not after the retries meant for a lock held by another process', async () => {
    // What proper-lockfile rejects with when its mkdir of `<file>.lock` is refused.
    const lock = vi.spyOn(lockfile, 'lock').mockImplementation((file) => {
      const error = Object.assign(new Error(`EACCES: permission denied, mkdir '${file}.lock'`), {
        code: 'EACCES',
      })
      return Promise.reject(error)
    })
    const started = Date.now()
    const error = await saveCassetteFile(join(dir, 'locked-out.cassette.json'), {
      put: new Map([[key('step', 1), step(1)]]),
      keep: undefined,
    }).catch((e: unknown) => e)
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(lock).toHaveBeenCalledTimes(1)
    expect((error as Error).message).toMatch(
      /\.lock cannot be created, is the directory read-only\? \(EACCES/,
    )
  })

  test.skipIf(process.getuid?.() === 0)('fails at once on a real read-only directory', async () => {
    const folder = join(dir, 'read-only')
    await mkdir(folder)
    await chmod(folder, 0o555)
    try {
      const started = Date.now()
      const error = await saveCassetteFile(join(folder, 'agent.cassette.json'), {
        put: new Map([[key('step', 1), step(1)]]),
        keep: undefined,
      }).catch((e: unknown) => e)
      expect(Date.now() - started).toBeLessThan(1_000)
      expect((error as Error).message).toMatch(/is the directory read-only\?/)
    } finally {
      await chmod(folder, 0o755)
    }
  })

  test('still waits for a lock another process holds', async () => {
    const file = join(dir, 'held.cassette.json')
    await mkdir(dir, { recursive: true })
    const release = await lockfile.lock(file, { realpath: false })
    setTimeout(() => void release(), 300)
    expect(await saveCassetteFile(file, { put: new Map([[key('step', 1), step(1)]]), keep: undefined })).toBe(
      true,
    )
  })
})
