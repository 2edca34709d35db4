import { describe, expect, it } from 'vitest'
import { InvalidOptionError } from '../../../src/errors.js'
import { parseOptions } from '../../../src/options/parse-options.js'
import { accountOf, Budget } from '../../../src/rollout/budget.js'
import {
  BaselineOptionsSchema,
  parseBaselineClaim,
  parseScoreGate,
  parseSequentialGate,
  parseZeroTolerance,
  type MatcherDefaults,
} from '../../../src/verdict/options.js'
import { claimRow } from '../../../src/verdict/claim-table.js'

// A claim's options parsed, then resolved for a run with `defaults` under `seed`.
const resolveSequentialGate = (
  claim: 'rarely' | 'usually',
  caller: string,
  options: unknown,
  defaults: MatcherDefaults,
  seed: number,
) => parseSequentialGate(claimRow(claim), caller, options).forRun({ defaults }, seed)
const resolveZeroTolerance = (claim: 'never' | 'always', caller: string, options: unknown) =>
  parseZeroTolerance(claimRow(claim), caller, options).forRun({ defaults: {} }, 1)
const resolveScoreGate = (claim: 'scoreAtLeast', caller: string, threshold: unknown, options: unknown) =>
  parseScoreGate(claimRow(claim), caller, threshold, options).forRun({ defaults: {} }, 1)

describe('resolveSequentialGate', () => {
  it('fills every default; the run defaults (the plugin) sit between the call and the built-ins', () => {
    const resolved = resolveSequentialGate('rarely', 'toRarely', {}, {}, 11)
    expect(resolved).toEqual({
      claim: 'rarely',
      direction: 'atMost',
      bound: 0.05,
      confidence: 0.95,
      maxRollouts: 400,
      minRollouts: 0,
      execution: {
        budget: expect.any(Budget),
        concurrency: 8,
        timeoutMs: 60_000,
        maxSteps: 100,
        signal: undefined,
        deadline: undefined,
      },
      onInconclusive: 'fail',
      allowErrors: false,
      attribute: {
        rollouts: 64,
        method: 'contrastive',
        context: { ablation: 'remove', placeholder: '[removed]', refine: true },
        runAhead: 0,
      },
      label: undefined,
      passK: [1, 3, 8],
      per: 'dataset',
      seed: 11,
    })
    const fromPlugin = resolveSequentialGate(
      'usually',
      'toUsually',
      {},
      { confidence: 0.9, maxRollouts: 50, concurrency: 2 },
      1,
    )
    expect(fromPlugin).toMatchObject({
      direction: 'atLeast',
      bound: 0.95,
      confidence: 0.9,
      maxRollouts: 50,
      execution: { concurrency: 2 },
    })
    const fromCall = resolveSequentialGate(
      'usually',
      'toUsually',
      { confidence: 0.99, maxRollouts: 70 },
      { confidence: 0.9, maxRollouts: 50 },
      1,
    )
    expect(fromCall).toMatchObject({ confidence: 0.99, maxRollouts: 70 })
  })

  it('spends from a shared Budget through an account of its own, so the gate and its attribution spend from it', () => {
    const budget = new Budget({ maxRollouts: 10 })
    const { execution } = resolveSequentialGate('rarely', 'toRarely', { budget }, {}, 1)
    expect(accountOf(execution.budget).tryChargeRollouts(4)).toBe(true)
    expect([execution.budget.spentRollouts, budget.spentRollouts, execution.budget.maxRollouts]).toEqual([
      4, 4, 10,
    ])
    const limited = resolveSequentialGate('rarely', 'toRarely', { budget: { maxRollouts: 3 } }, {}, 1)
    expect(limited.execution.budget.maxRollouts).toBe(3)
  })

  it('makes a fresh budget from limits for each run, so two checks of one parsed claim share no spending', () => {
    const parsed = parseSequentialGate(claimRow('rarely'), 'rarely', { budget: { maxRollouts: 3 } })
    const first = parsed.forRun({ defaults: {} }, 1).execution.budget
    expect(accountOf(first).tryChargeRollouts(3)).toBe(true)
    const second = parsed.forRun({ defaults: {} }, 1).execution.budget
    expect([first.remainingRollouts, second.remainingRollouts]).toEqual([0, 3])
  })

  it('resolves attribute.context: on by default, false turns it off, an object sets the ablation', () => {
    const resolve = (attribute: unknown) =>
      resolveSequentialGate('rarely', 'toRarely', { attribute }, {}, 1).attribute
    expect(resolve({ context: false })).toEqual({
      rollouts: 64,
      method: 'contrastive',
      context: false,
      runAhead: 0,
    })
    expect(resolve({ context: true })).toMatchObject({
      context: { ablation: 'remove', placeholder: '[removed]', refine: true },
    })
    const ablate = (context: unknown) => context
    const custom = resolve({ method: 'both', context: { ablation: 'placeholder', placeholder: '…', ablate } })
    expect(custom).toEqual({
      rollouts: 64,
      method: 'both',
      context: { ablation: 'placeholder', placeholder: '…', refine: true, ablate },
      runAhead: 0,
    })
    expect(resolve(false)).toBe(false)
  })

  it('trims the label', () => {
    expect(resolveSequentialGate('rarely', 'toRarely', { label: '  refund wrongly ' }, {}, 1).label).toBe(
      'refund wrongly',
    )
  })

  it.each([
    [
      { atMost: 0 },
      '`atMost` must be a rate in (0, 1), e.g. 0.05, got 0. For "never", use never(pred, { rollouts }) / toNever.',
    ],
    [{ atMost: 1.5 }, '`atMost` must be a rate in (0, 1), e.g. 0.05, got 1.5.'],
    [{ confidence: 0.4 }, '`confidence` must be a confidence in (0.5, 1), e.g. 0.95, got 0.4.'],
    [{ maxRollouts: 0 }, '`maxRollouts` must be a positive integer, got 0.'],
    [{ maxRollouts: 10, minRollouts: 20 }, '`minRollouts` must be at most maxRollouts (10), got 20.'],
    [{ onInconclusive: 'skip' }, "`onInconclusive` must be 'fail' or 'pass', got a string \"skip\"."],
    [
      { attribute: { method: 'lime' } },
      "`attribute.method` must be 'contrastive', 'shapley' or 'both', got a string \"lime\".",
    ],
    [{ attribute: { rollouts: 0 } }, '`attribute.rollouts` must be a positive integer, got 0.'],
    [
      { attribute: { rolouts: 3 } },
      'unknown option `attribute.rolouts`. It accepts: rollouts, method, context, runAhead.',
    ],
    [{ attribute: null }, '`attribute` must be false or { rollouts?, method?, context? }, got null.'],
    [
      { attribute: { context: { ablation: 'mask' } } },
      "`attribute.context.ablation` must be 'remove' or 'placeholder', got a string \"mask\".",
    ],
    [
      { attribute: { context: { ablate: 'drop' } } },
      '`attribute.context.ablate` must be a function (context, path) => context with the part removed, got a string "drop".',
    ],
    [
      { attribute: { context: { ablaton: 'remove' } } },
      'unknown option `attribute.context.ablaton`. It accepts: ablation, placeholder, ablate, parts, refine, maxRollouts.',
    ],
    [
      { attribute: { context: 'yes' } },
      '`attribute.context` must be true, false or { ablation?, placeholder?, ablate?, parts?, refine?, maxRollouts? }, got a string "yes".',
    ],
    [{ atMots: 0.1 }, 'unknown option `atMots`. It accepts: '],
    [{ budget: { maxRollouts: -1 } }, '`budget.maxRollouts` must be a non-negative integer'],
    [
      { budget: { maxRolouts: 5 } },
      'unknown option `budget.maxRolouts`. It accepts: maxRollouts, maxCostUsd.',
    ],
    [{ budget: null }, '`budget` must be a Budget or limits { maxRollouts?, maxCostUsd? }, got null.'],
    [{ label: '  ' }, '`label` must be a non-empty string'],
    [{ passK: [1, 0] }, '`passK[1]` must be a positive integer'],
    [{ passK: 3 }, '`passK` must be an array of at most 20 positive integers, e.g. [1, 3, 8]'],
  ])('rejects %j with a message naming the option', (options, message) => {
    expect(() => resolveSequentialGate('rarely', 'toRarely', options, {}, 1)).toThrow(`toRarely: ${message}`)
  })

  it('carries the problem as data', () => {
    let error: unknown
    try {
      resolveSequentialGate('rarely', 'rarely', { budget: { maxRolouts: 5 } }, {}, 1)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(InvalidOptionError)
    expect(error).toMatchObject({
      caller: 'rarely',
      option: 'budget.maxRolouts',
      accepted: ['maxRollouts', 'maxCostUsd'],
    })
  })

  it('usually points at always for atLeast: 1', () => {
    expect(() => resolveSequentialGate('usually', 'toUsually', { atLeast: 1 }, {}, 1)).toThrow(/use always/)
  })
})

describe('resolveZeroTolerance and resolveBaseline', () => {
  it('default to 100 rollouts', () => {
    expect(resolveZeroTolerance('never', 'toNever', {})).toMatchObject({
      rollouts: 100,
      direction: 'atMost',
    })
    expect(resolveZeroTolerance('always', 'toAlways', {})).toMatchObject({
      rollouts: 100,
      direction: 'atLeast',
    })
    const baseline = parseBaselineClaim('matchesBaseline', { file: 'b.json', name: 'k' })
    expect(baseline.forRun({ defaults: {} }, 1)).toMatchObject({
      rollouts: 100,
      tolerance: 0,
      better: 'lower',
      name: 'k',
    })
  })

  it('reject options of other claims and bad values', () => {
    expect(() => resolveZeroTolerance('never', 'toNever', { maxRollouts: 5 })).toThrow(
      /toNever: unknown option `maxRollouts`/,
    )
    expect(() => parseOptions('toMatchRateBaseline', BaselineOptionsSchema, { tolerance: -0.1 })).toThrow(
      'toMatchRateBaseline: `tolerance` must be a rate in [0, 1), e.g. 0.02, got -0.1.',
    )
    expect(() => parseOptions('toMatchRateBaseline', BaselineOptionsSchema, { better: 'up' })).toThrow(
      "toMatchRateBaseline: `better` must be 'lower' or 'higher'",
    )
    expect(() => parseOptions('toMatchRateBaseline', BaselineOptionsSchema, { file: 'x.json' })).toThrow(
      /toMatchRateBaseline: unknown option `file`/,
    )
  })

  it('a baseline claim needs its file and key, and takes an update mode', () => {
    expect(() => parseBaselineClaim('matchesBaseline', { file: 'b.json', name: 'k' })).not.toThrow()
    expect(() => parseBaselineClaim('matchesBaseline', { name: 'k' })).toThrow(
      'matchesBaseline: `file` must be a non-empty path, got undefined.',
    )
    expect(() =>
      parseBaselineClaim('matchesBaseline', { file: 'b.json', name: 'k', update: 'some' }),
    ).toThrow("`update` must be 'all', 'new' or 'none'")
  })
})

describe('resolveScoreGate', () => {
  it('refuses passK, which a score does not define, naming it', () => {
    expect(() => resolveScoreGate('scoreAtLeast', 'toScoreAtLeast', 0.8, { passK: [1, 3] })).toThrow(
      /toScoreAtLeast: unknown option `passK`/,
    )
  })
})
