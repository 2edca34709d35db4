import { describe, expect, it } from 'vitest'
import { programStatus, type OutsideProgram } from './outside-program.js'

const REDIS: OutsideProgram = {
  name: 'Redis',
  path: '/usr/bin/redis-server',
  install: 'apt-get install redis-server',
}
const absent = () => false

describe('programStatus', () => {
  it('runs the tests when the program is there, in CI or not', () => {
    expect(programStatus(REDIS, { CI: 'true' }, () => true)).toEqual({ kind: 'present' })
    expect(programStatus(REDIS, {}, () => true)).toEqual({ kind: 'present' })
  })

  it('fails in CI when the program is missing, naming it, its path and how to install it', () => {
    for (const CI of ['true', '1', 'yes']) {
      const status = programStatus(REDIS, { CI }, absent)
      expect(status).toMatchObject({ kind: 'missing', inCi: true })
      expect(status.kind === 'missing' && status.message).toBe(
        'Redis is not at /usr/bin/redis-server, and CI must run these tests: install it in the image (apt-get install redis-server).',
      )
    }
  })

  it('skips locally (CI unset, empty, 0 or false) with one line saying why', () => {
    for (const env of [{}, { CI: '' }, { CI: '0' }, { CI: 'false' }]) {
      const status = programStatus(REDIS, env, absent)
      expect(status).toMatchObject({ kind: 'missing', inCi: false })
      expect(status.kind === 'missing' && status.message).toBe(
        'skipped: Redis is not at /usr/bin/redis-server (apt-get install redis-server); CI fails instead of skipping.',
      )
    }
  })
})
