import { beforeAll, describe, expect, it } from 'vitest'
import { Budget, type Trajectory } from '../../../src/index.js'
import { record, replay, resample, runRollouts } from '../../../src/entries/replay.js'
import { contrastive, estimateRollouts, shapley } from '../../../src/entries/attribution.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'
import { DEFAULTS } from '../../../src/options/defaults.js'
import { resolveRolloutOptions } from '../../../src/rollout/options.js'
import { causalReplay } from '../../../src/vitest/plugin.js'
import CausalReplayReporter from '../../../src/vitest/reporter.js'
import { chainAgent } from '../agents.js'

// Every public entry point parses its options with one strict schema: an unknown key at any depth
// is an error listing the accepted keys, and `null` is an error naming the option.
const { agent } = chainAgent()
const isBad = (): boolean => true
let factual: Trajectory
beforeAll(async () => {
  factual = await record(agent, { seed: 1 })
})

type Call = (options: unknown) => unknown

// [caller, call, valid options, one key it accepts]
const entryPoints: Array<[string, Call, object, string]> = [
  ['runRollouts', (options) => runRollouts(agent, options as never), { rollouts: 1 }, 'onProgress'],
  ['record', (options) => record(agent, options as never), { seed: 1 }, 'rollout'],
  ['replay', (options) => replay(agent, factual, resample(0), options as never), { rollouts: 1 }, 'tools'],
  ['contrastive', (options) => contrastive(agent, factual, options as never), { isBad }, 'minEffect'],
  ['shapley', (options) => shapley(agent, factual, options as never), { isBad }, 'permutations'],
  ['estimateRollouts', (options) => estimateRollouts(3, options as never), {}, 'shapley'],
  ['new Budget', (options) => new Budget(options as never), {}, 'maxCostUsd'],
  ['causalReplay', (options) => causalReplay(options as never), {}, 'reportDir'],
  ['vitest-causal-replay/reporter', (options) => new CausalReplayReporter(options as never), {}, 'silent'],
]

/** What `call(options)` throws (sync or async), as an InvalidOptionError. */
async function errorOf(call: Call, options: unknown): Promise<InvalidOptionError> {
  let thrown: unknown
  try {
    await call(options)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(InvalidOptionError)
  return thrown as InvalidOptionError
}

describe.each(entryPoints)('%s', (caller, call, valid, known) => {
  it('refuses an unknown key, naming it and listing the accepted keys', async () => {
    const error = await errorOf(call, { ...valid, colour: 'blue' })
    expect(error.caller).toBe(caller)
    expect(error.option).toBe('colour')
    expect(error.accepted).toContain(known)
    expect(error.accepted).not.toContain('colour')
    expect(error.message).toBe(
      `${caller}: unknown option \`colour\`. It accepts: ${error.accepted?.join(', ')}.`,
    )
  })

  it('refuses null options, naming them', async () => {
    const error = await errorOf(call, null)
    expect(error).toMatchObject({ caller, received: 'null' })
    expect(error.message).toMatch(
      new RegExp(`^${caller.replace(/[/]/g, '\\/')}: \`(options|limits)\` must be an object, got null\\.$`),
    )
  })
})

const withBudget = entryPoints.filter(([caller]) =>
  ['runRollouts', 'record', 'replay', 'contrastive', 'shapley'].includes(caller),
)

describe.each(withBudget)('%s, its budget', (caller, call, valid) => {
  it('refuses `budget: null`, naming `budget`', async () => {
    const error = await errorOf(call, { ...valid, budget: null })
    expect(error.message).toBe(
      `${caller}: \`budget\` must be a Budget or limits { maxRollouts?, maxCostUsd? }, got null.`,
    )
  })

  it('refuses a typo inside `budget`, naming the dotted path and listing the limits', async () => {
    const error = await errorOf(call, { ...valid, budget: { maxRolouts: 5 } })
    expect(error.message).toBe(
      `${caller}: unknown option \`budget.maxRolouts\`. It accepts: maxRollouts, maxCostUsd.`,
    )
  })
})

describe('nested options of estimateRollouts', () => {
  it.each([
    [{ shapley: null }, 'estimateRollouts: `shapley` must be an object, got null.'],
    [
      { contrastive: { rollouts: 8, serch: 'binary' } },
      'estimateRollouts: unknown option `contrastive.serch`. It accepts: rollouts, search.',
    ],
  ])('refuses %j', (options, message) => {
    expect(() => estimateRollouts(3, options as never)).toThrow(message)
  })
})

describe('the defaults the schemas fill in', () => {
  it('are the ones of the one table', () => {
    expect(resolveRolloutOptions({ seed: 1 })).toMatchObject({
      rollouts: DEFAULTS.rollouts,
      concurrency: DEFAULTS.concurrency,
      timeoutMs: DEFAULTS.timeoutMs,
      maxSteps: DEFAULTS.maxSteps,
    })
    expect(estimateRollouts(3)).toMatchObject({
      contrastive: { rolloutsPerStep: DEFAULTS.contrastiveRollouts },
      shapley: { method: 'exact' },
    })
    expect(estimateRollouts(3, { shapley: { method: 'permutation' } }).shapley).toMatchObject({
      permutations: DEFAULTS.shapleyPermutations,
      antithetic: DEFAULTS.antithetic,
      samplesPerEval: DEFAULTS.permutationSamplesPerEval,
    })
  })

  it('match the documented numbers', () => {
    expect(DEFAULTS).toMatchObject({
      rollouts: 100,
      replayRollouts: 32,
      concurrency: 8,
      timeoutMs: 60_000,
      maxSteps: 100,
      confidence: 0.95,
      contrastiveRollouts: 32,
      minEffect: 0.25,
      batchSize: 4,
      shapleyPermutations: 64,
      maxRollouts: 400,
      zeroToleranceRollouts: 100,
      baselineRollouts: 100,
      attributeRollouts: 64,
      atMost: 0.05,
      atLeast: 0.95,
      tolerance: 0,
    })
  })
})
