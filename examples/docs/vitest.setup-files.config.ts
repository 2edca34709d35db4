// vitest.config.ts, without the plugin
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    setupFiles: ['vitest-causal-replay/matchers'],
    reporters: ['default', 'vitest-causal-replay/reporter'],
  },
})
