import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  compareArms,
  comparisonKind,
  effectIntervalConfidence,
  fixedRescuePValue,
} from '../../../../src/attribute/arms/arm-comparison.js'
import { Arm, type RolloutOutcome } from '../../../../src/attribute/arms/replay-arms.js'
import type { Plan } from '../../../../src/rollout/plan.js'

const plan = {} as Plan

function armOf(outcomes: readonly RolloutOutcome[]): Arm {
  const arm = new Arm(plan, 1)
  arm.outcomes.push(...outcomes)
  arm.rolloutsRun = outcomes.length
  return arm
}

/** Two arms paired by rollout index, errors included (a pair with an error is not evaluated). */
const pairedArms = fc
  .array(
    fc.tuple(
      fc.constantFrom<RolloutOutcome>('bad', 'bad', 'good', 'error'),
      fc.constantFrom<RolloutOutcome>('bad', 'bad', 'bad', 'good', 'error'),
    ),
    { minLength: 1, maxLength: 90 },
  )
  .map((pairs) => [armOf(pairs.map(([arm]) => arm)), armOf(pairs.map(([, baseline]) => baseline))] as const)

describe('arm comparison', () => {
  it('reports differences two-sided at 1 − 2α, so each end is a one-sided bound at 1 − α', () => {
    expect(effectIntervalConfidence(0.95)).toBeCloseTo(0.9, 12)
    const arm = armOf(['good', 'good', 'bad', 'good'])
    const baseline = armOf(['bad', 'bad', 'bad', 'bad'])
    for (const kind of ['paired', 'independent', 'sequential'] as const) {
      expect(compareArms(kind, arm, baseline, 0.95).confidence).toBeCloseTo(0.9, 12)
    }
    expect(comparisonKind(true, false)).toBe('paired')
  })

  it.each(['paired', 'independent'] as const)(
    '%s: the rescue p-value is ≤ α exactly when the interval at 1 − α lies below 0',
    (kind) => {
      fc.assert(
        fc.property(
          pairedArms,
          fc.double({ min: 0.001, max: 0.2, noNaN: true }),
          ([arm, baseline], alpha) => {
            const p = fixedRescuePValue(kind, arm, baseline)
            const high = compareArms(kind, arm, baseline, 1 - alpha).high
            // Both ends are found by bisection to 1e-12; skip the measure-zero ties.
            fc.pre(Math.abs(high) > 1e-9 && Math.abs(p - alpha) > 1e-9)
            expect(p <= alpha).toBe(high < 0)
          },
        ),
        { numRuns: 300 },
      )
    },
  )
})
