import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { causalReplay } from '../../src/vitest/plugin.js'

describe('causalReplay()', () => {
  it("adds the matchers setup file to the config (merged with the user's by Vite)", () => {
    const plugin = causalReplay()
    expect(plugin.name).toBe('vitest-causal-replay')
    const config = (plugin.config as () => { test: { setupFiles: string[] } })()
    expect(config.test.setupFiles).toHaveLength(1)
    expect(existsSync(config.test.setupFiles[0]!)).toBe(true)
    expect(config.test.setupFiles[0]).toMatch(/matchers[\\/]index\.(js|ts)$/)
  })

  it.each([
    [{ confidence: 1 }, 'causalReplay: `confidence` must be a confidence in (0.5, 1), e.g. 0.95, got 1.'],
    [{ confidence: 0.5 }, 'causalReplay: `confidence` must be a confidence in (0.5, 1), e.g. 0.95, got 0.5.'],
    [{ maxRollouts: 2.5 }, 'causalReplay: `maxRollouts` must be a positive integer, got 2.5.'],
    [{ concurrency: 0 }, 'causalReplay: `concurrency` must be a positive integer, got 0.'],
    [{ reportDir: '' }, 'causalReplay: `reportDir` must be a non-empty path, got a string "".'],
    [{ reporter: null }, 'causalReplay: `reporter` must be true or false, got null.'],
    [
      { maxRolouts: 200 },
      'causalReplay: unknown option `maxRolouts`. It accepts: confidence, maxRollouts, concurrency, modelConcurrency, reportDir, reporter, cache, cacheRedact, rateLimit.',
    ],
  ])('rejects %j naming the option', (options, message) => {
    expect(() => causalReplay(options as never)).toThrow(message)
  })
})
