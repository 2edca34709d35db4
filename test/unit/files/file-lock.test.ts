import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { lockFile } from '../../../src/files/file-lock.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-lock-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('lockFile', () => {
  test('creates the folder, holds <file>.lock, and makes a second taker wait until it is released', async () => {
    const file = join(dir, 'nested/folder/data.json')
    const release = await lockFile(file)
    expect(existsSync(`${file}.lock`)).toBe(true)
    let secondHolds = false
    const second = lockFile(file).then((releaseSecond) => {
      secondHolds = true
      return releaseSecond
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(secondHolds).toBe(false)
    await release()
    const releaseSecond = await second
    expect(secondHolds).toBe(true)
    await releaseSecond()
    expect(existsSync(`${file}.lock`)).toBe(false)
  })
})
