import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // examples/node-test runs under Node's own test runner (test/examples/node-test.test.ts runs it).
    exclude: ['**/node_modules/**', 'test/fixtures/**', 'examples/node-test/**'],
    // Packs the package once per run; the fixture projects of test/integration install the tarball.
    globalSetup: ['test/integration/pack.global-setup.ts'],
    // The repository's own tests draw every model call afresh, and write no __cassettes__ beside
    // them; test/integration/cassette-fixture.test.ts tests cassettes in a fixture project (whose
    // child runs do not inherit CAUSAL_REPLAY_* variables).
    env: { CAUSAL_REPLAY_CACHE: 'off' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
