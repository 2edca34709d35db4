import { describe, expect, test } from 'vitest'
import { resolveCassetteMode, writeForUpdateState } from '../../../src/cassette/mode.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'

describe('resolveCassetteMode', () => {
  test('CAUSAL_REPLAY_CACHE wins over the configured mode, which wins over the fallback', () => {
    expect(resolveCassetteMode(undefined, 'auto', 'x', {})).toBe('auto')
    expect(resolveCassetteMode('offline', 'auto', 'x', {})).toBe('offline')
    expect(resolveCassetteMode('offline', 'auto', 'x', { CAUSAL_REPLAY_CACHE: 'refresh' })).toBe('refresh')
    expect(resolveCassetteMode('auto', 'auto', 'x', { CAUSAL_REPLAY_CACHE: ' off ' })).toBe('off')
    expect(resolveCassetteMode('auto', 'auto', 'x', { CAUSAL_REPLAY_CACHE: '' })).toBe('auto')
  })

  test('a bad environment value is an error naming the variable and the modes', () => {
    expect(() =>
      resolveCassetteMode(undefined, 'auto', 'causalReplay', { CAUSAL_REPLAY_CACHE: 'replay' }),
    ).toThrow(InvalidOptionError)
    expect(() =>
      resolveCassetteMode(undefined, 'auto', 'causalReplay', { CAUSAL_REPLAY_CACHE: 'replay' }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[InvalidOptionError: causalReplay: \`CAUSAL_REPLAY_CACHE\` must be 'auto', 'offline', 'refresh', 'off', got "replay".]`,
    )
  })
})

describe('writeForUpdateState', () => {
  test('follows Vitest snapshots: -u prunes, CI writes nothing, locally new entries are added', () => {
    expect(writeForUpdateState('all')).toBe('prune')
    expect(writeForUpdateState('none')).toBe('none')
    expect(writeForUpdateState('new')).toBe('merge')
  })
})
