// `vitest-causal-replay/stats`: the statistics behind the verdicts, as pure functions from counts
// and scores to intervals, tests and decisions. No I/O, no Vitest. Results of the root API carry
// `Estimate` and `Interval`; this subpath is for users who want to compute them themselves.

// What intervals are and how they were computed.
export {
  EstimateSchema,
  IntervalMethodSchema,
  IntervalSchema,
  type Estimate,
  type Interval,
  type IntervalMethod,
} from './estimate.js'

// A rate: one proportion with its interval.
export { wilson, wilsonLimits } from './wilson.js'
export { clopperPearson } from './clopper-pearson.js'
export { confidenceSequence } from './confidence-sequence.js'

// Two rates: the difference of independent or of paired proportions.
export { independentScoreTestOneSided, newcombe, newcombeCorrected } from './newcombe.js'
export { pairedScoreTestOneSided, tango, tangoScore, type PairedTable } from './tango.js'
export {
  TANGO_CONTINUITY_CORRECTION,
  TANGO_CORRECTED_METHOD,
  pairedCorrectedScoreTestOneSided,
  tangoCorrected,
} from './tango-corrected.js'
export {
  CONFIDENCE_SEQUENCE_DISCORDANT_SHARE,
  PAIRED_DIFFERENCE_METHOD,
  pairedDifference,
  pairedDifferenceTestOneSided,
} from './paired-difference.js'
export {
  PAIRED_E_PROCESS_METHOD,
  logEValueAbove,
  logEValueBelow,
  pairedConfidenceSequence,
  type PairedCounts,
} from './paired-confidence-sequence.js'

// A mean score.
export { mean } from './sample.js'
export { bootstrapMean, type BootstrapOptions } from './bootstrap.js'
export { cltMean } from './clt.js'
export { studentTMean } from './student-t.js'
export { boundedMeanT, type BoundedMeanOptions } from './bounded-mean.js'
export { meanScoreInterval, type MeanScoreOptions } from './mean-score.js'
export {
  BETTING_METHOD,
  bettingLogWealthPath,
  bettingMeanTest,
  bettingStakes,
  type BettingDecision,
  type BettingMeanInput,
  type BettingMeanResult,
  type LogWealth,
} from './betting-mean-test.js'

// Many tests at once.
export { holm } from './holm.js'

// Sequential tests: decide as soon as the evidence allows, at any stopping time.
export { MIXTURE_E_PROCESS_METHOD, mixtureLogEValues, type MixtureLogEValues } from './mixture-e-process.js'
export {
  rolloutsToDecide,
  sequentialBoundaries,
  sequentialRateTest,
  type SequentialBoundaries,
  type SequentialDecision,
  type SequentialRateInput,
  type SequentialRateResult,
} from './sequential-rate-test.js'
export {
  sequentialOperatingCharacteristics,
  type OperatingCharacteristics,
  type OperatingCharacteristicsInput,
} from './operating-characteristics.js'
