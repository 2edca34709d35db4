// vitest.config.ts
import { defineConfig } from 'vitest/config'
import { causalReplay } from '../../src/vitest/plugin.js'

export default defineConfig({
  plugins: [causalReplay({ rateLimit: { requestsPerMinute: 500, tokensPerMinute: 200_000 } })],
})
