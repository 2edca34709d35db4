// The setup file of vitest-causal-replay: `setupFiles: ['vitest-causal-replay/matchers']` (the
// plugin adds it). It registers the rate matchers; their types on `expect(...)` come with this
// module too (and with the package root and the plugin), from src/vitest/rate-matchers.ts.
import { expect } from 'vitest'
import { saveCassetteAfterEachFile } from '../src/vitest/test-cassette.js'
import { toAlways } from './to-always.js'
import { toBeNoWorseThan } from './to-be-no-worse-than.js'
import { toMatchRateBaseline } from './to-match-rate-baseline.js'
import { toNever } from './to-never.js'
import { toRarely } from './to-rarely.js'
import { toScoreAtLeast } from './to-score-at-least.js'
import { toScoreAtMost } from './to-score-at-most.js'
import { toUsually } from './to-usually.js'

expect.extend({
  toRarely,
  toUsually,
  toNever,
  toAlways,
  toMatchRateBaseline,
  toScoreAtLeast,
  toScoreAtMost,
  toBeNoWorseThan,
})
// Each test file's cassette (its recorded model calls) is saved when the file ends.
saveCassetteAfterEachFile()

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
