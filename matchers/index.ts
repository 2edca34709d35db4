// The setup file of vitest-causal-replay: `setupFiles: ['vitest-causal-replay/matchers']` (the
// plugin adds it). It registers the rate matchers; their types on `expect(...)` come with this
// module too (and with the package root and the plugin), from src/vitest/rate-matchers.ts.
import { expect } from 'vitest'
import { saveCassetteAfterEachFile } from '../src/vitest/test-cassette.js'
import { matcherFunctions } from '../src/vitest/matcher-functions.js'

// One matcher per kind of claim, named and shaped by the claims table (src/verdict/claim-table.ts).
expect.extend(matcherFunctions())
// Each test file's cassette (its recorded model calls) is saved when the file ends.
saveCassetteAfterEachFile()

// A dataset's cases as test rows under its claims (the rows report the claim's own runs).
export { describeDataset, type DatasetClaims } from '../src/vitest/describe-dataset.js'

// A type-only export keeps the reference in the emitted .d.ts (an empty `import type {}` is
// dropped there), so `types: ['vitest-causal-replay/matchers']` still brings the augmentation.
export type { RateMatchers } from '../src/vitest/rate-matchers.js'
export type {
  AttributeOptions,
  BaselineOptions,
  CommonMatcherOptions,
  NoWorseThanOptions,
  RarelyOptions,
  ScoreOptions,
  SequentialGateOptions,
  UsuallyOptions,
  ZeroToleranceOptions,
} from '../src/verdict/options.js'
// The types the functions above reach, by name, as the root exports them (`core.Trajectory`).
export type * as core from '../src/index.js'
