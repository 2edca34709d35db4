import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
