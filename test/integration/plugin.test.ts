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
    [{ confidence: 1 }, /`confidence` must be in \(0\.5, 1\)/],
    [{ maxRollouts: 2.5 }, /`maxRollouts` must be a positive integer, got 2\.5/],
    [{ concurrency: 0 }, /`concurrency` must be a positive integer, got 0/],
    [{ reportDir: '' }, /`reportDir` must be a non-empty path/],
  ])('rejects %j naming the option', (options, message) => {
    expect(() => causalReplay(options)).toThrow(message)
  })
})
