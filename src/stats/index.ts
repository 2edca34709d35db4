// The statistics stage: pure functions from counts and scores to intervals, tests and decisions.
export {
  EstimateSchema,
  IntervalMethodSchema,
  IntervalSchema,
  type Estimate,
  type Interval,
  type IntervalMethod,
} from './estimate.js'
export { normalCdf, normalQuantile, twoSidedZ } from './normal.js'
export { logBeta, logGamma } from './log-gamma.js'
export { regularizedGammaP, regularizedGammaQ } from './incomplete-gamma.js'
export {
  inverseRegularizedIncompleteBeta,
  logIncompleteBeta,
  regularizedIncompleteBeta,
} from './incomplete-beta.js'
export { wilson, wilsonLimits } from './wilson.js'
export { clopperPearson } from './clopper-pearson.js'
export { independentScoreTestOneSided, newcombe } from './newcombe.js'
export { pairedScoreTestOneSided, tango, tangoScore, type PairedTable } from './tango.js'
export { mean } from './sample.js'
export { bootstrapMean, type BootstrapOptions } from './bootstrap.js'
export { cltMean } from './clt.js'
export { meanScoreInterval, type MeanScoreOptions } from './mean-score.js'
export { holm } from './holm.js'
export { MIXTURE_E_PROCESS_METHOD, mixtureLogEValues, type MixtureLogEValues } from './mixture-e-process.js'
export { confidenceSequence } from './confidence-sequence.js'
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
export {
  PAIRED_E_PROCESS_METHOD,
  logEValueAbove,
  logEValueBelow,
  pairedConfidenceSequence,
  type PairedCounts,
} from './paired-confidence-sequence.js'
