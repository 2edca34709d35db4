/**
 * Every built-in default, in one table, so the schemas, the docs, the plugin and the matchers
 * agree. Option doc comments state these values; a change here is a change of documented behaviour.
 */
export const DEFAULTS = {
  // runRollouts, record, replay, and every rollout the matchers and attribution run
  rollouts: 100,
  replayRollouts: 32,
  recordRollout: 0,
  firstRollout: 0,
  concurrency: 8,
  timeoutMs: 60_000,
  maxSteps: 100,
  tools: 'live',
  onDivergence: 'count',

  // Rate matchers
  confidence: 0.95,
  maxRollouts: 400,
  minRollouts: 0,
  onInconclusive: 'fail',
  allowErrors: false,
  zeroToleranceRollouts: 100,
  per: 'dataset',
  baselineRollouts: 100,
  better: 'lower',
  tolerance: 0,
  margin: 0,
  atMost: 0.05,
  atLeast: 0.95,
  attributeRollouts: 64,
  attributeMethod: 'contrastive',
  attributeContext: true,
  passK: [1, 3, 8],

  // contextAttribution (the matchers' `attribute.context`)
  contextAblation: 'remove',
  contextPlaceholder: '[removed]',
  contextRefine: true,

  // contrastive
  contrastiveRollouts: 32,
  crn: true,
  sequential: true,
  search: 'auto',
  minEffect: 0.25,
  batchSize: 4,
  runAhead: 0,

  // shapley (samplesPerEval of 'exact' depends on the step count: see `exactSamplesPerEval`)
  shapleyMethod: 'auto',
  shapleyPermutations: 64,
  permutationSamplesPerEval: 1,
  antithetic: true,

  // an adapter's judge, and its calibrate
  judgeTimeoutMs: 60_000,
  judgeTemperature: 0,
  calibrateConcurrency: 4,

  // check, and score claims
  checkFile: '',
  scoreRange: [0, 1],
} as const
