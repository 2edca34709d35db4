import { describe, expect, it } from 'vitest'
import type { Trajectory } from '../../../src/index.js'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { confidenceSequence } from '../../../src/stats/confidence-sequence.js'
import type { Estimate } from '../../../src/stats/estimate.js'
import { sequentialBoundaries } from '../../../src/stats/sequential-rate-test.js'
import { wilson } from '../../../src/stats/wilson.js'
import type { ResolvedSequentialGate } from '../../../src/verdict/options.js'
import { runSequentialGate } from '../../../src/verdict/sequential-gate.js'
import { runZeroToleranceGate } from '../../../src/verdict/zero-tolerance-gate.js'
import { coinAgent, sequentialGate, subject, zeroToleranceGate, type GateOverrides } from './gate-helpers.js'

// The rate a gate prints must cover the true rate at the level it states, after the gate stopped
// wherever its test let it. On a coin agent a gate's verdict is a function of where it stops (the
// count and the rollouts), so the coverage is a sum over the stopping points, enumerated exactly:
// no Monte Carlo error, so a rule or interval that covers 3 points under its level (or any amount)
// fails with certainty, and a correct one never does. That the engine stops and prints as enumerated
// is checked run by run on seeded runs of the gate itself: a gate that stopped or printed otherwise
// on ≥ 3% of runs (what it takes to move the coverage 3 points) meets one of 100 runs with
// probability 1 − 0.97¹⁰⁰ = 0.95, one of 150 with 0.995.

/** One way a gate can stop, with its probability. */
interface Stop {
  successes: number
  n: number
  probability: number
}

/** Where a gate with these stopping regions stops on a coin of rate `truth`, exactly. */
function sequentialStops(truth: number, options: ResolvedSequentialGate<'rarely' | 'usually'>): Stop[] {
  const { belowAtMost, aboveAtLeast } = sequentialBoundaries(
    options.bound,
    1 - options.confidence,
    options.maxRollouts,
  )
  const stops: Stop[] = []
  // undecided[s]: the probability of having s successes in n rollouts without having stopped.
  let undecided = [1]
  for (let n = 1; n <= options.maxRollouts; n++) {
    const next = new Array<number>(n + 1).fill(0)
    undecided.forEach((probability, s) => {
      next[s] = (next[s] ?? 0) + probability * (1 - truth)
      next[s + 1] = (next[s + 1] ?? 0) + probability * truth
    })
    undecided = next
    next.forEach((probability, successes) => {
      const decided = successes <= (belowAtMost[n] ?? -1) || successes >= (aboveAtLeast[n] ?? n + 1)
      if (probability > 0 && (decided || n === options.maxRollouts)) {
        stops.push({ successes, n, probability })
        next[successes] = 0
      }
    })
  }
  return stops
}

/** The probability that the interval printed at the stop holds `truth`. */
function exactCoverage(stops: readonly Stop[], truth: number, interval: (stop: Stop) => Estimate): number {
  return stops.reduce((sum, stop) => {
    const { low, high } = interval(stop)
    return low <= truth && truth <= high ? sum + stop.probability : sum
  }, 0)
}

/** The coin's outcomes in rollout order, as the gate scored them (the predicate records each). */
function recordingSubject() {
  const outcomes = new Map<number, boolean>()
  const predicate = (trajectory: Trajectory): boolean => {
    const bad = trajectory.output === 'bad'
    outcomes.set(trajectory.rollout, bad)
    return bad
  }
  const inOrder = (): boolean[] => Array.from({ length: outcomes.size }, (_, index) => outcomes.get(index)!)
  return { subject: subject(predicate), inOrder }
}

/** Where a gate whose stopping rule is `isStop` stops on a stream of outcomes (at `max` at the latest). */
function stopOn(
  outcomes: readonly boolean[],
  isStop: (successes: number, n: number) => boolean,
  max: number,
) {
  let successes = 0
  for (let n = 1; n <= outcomes.length; n++) {
    if (outcomes[n - 1]) successes++
    if (isStop(successes, n) || n === max) return { successes, n }
  }
  return { successes, n: outcomes.length }
}

/** Each side's α, computed as the gates compute it (1 − 0.95 is not 0.05 in floating point). */
const ALPHA = 1 - sequentialGate().confidence

/** The 1 − 2α sequence a sequential gate prints. */
const printedSequence = (stop: Pick<Stop, 'successes' | 'n'>) =>
  confidenceSequence(stop.successes, stop.n, 2 * ALPHA)

describe("a sequential gate's printed rate interval", () => {
  // Each case: the true rate and the gate. Exact coverage of the printed 90% sequence (and of the
  // 95% Wilson interval read at the stop that it replaced), in the order of the cases: 98.61%
  // (85.17%), 99.97% (87.19%), 99.90% (98.24%), 99.64% (94.63%), 99.85% (98.49%).
  const cases: ReadonlyArray<{
    name: string
    truth: number
    overrides: GateOverrides<ResolvedSequentialGate<'rarely' | 'usually'>>
  }> = [
    { name: '"≤ 5%", true 10% (stops early to fail)', truth: 0.1, overrides: {} },
    { name: '"≤ 5%", true 20%', truth: 0.2, overrides: {} },
    { name: '"≤ 5%", true 1% (stops to pass)', truth: 0.01, overrides: {} },
    { name: '"≤ 1%", true 0.5% (skewed, small)', truth: 0.005, overrides: { bound: 0.01 } },
    {
      name: '"≥ 90%", true 97% (toUsually)',
      truth: 0.97,
      overrides: { claim: 'usually', direction: 'atLeast', bound: 0.9 },
    },
  ]

  it.each(cases)('covers at its stated level after early stops, exactly: $name', ({ truth, overrides }) => {
    const stops = sequentialStops(truth, sequentialGate(overrides))
    const mass = stops.reduce((sum, stop) => sum + stop.probability, 0)
    expect(mass).toBeCloseTo(1, 12)
    expect(exactCoverage(stops, truth, printedSequence)).toBeGreaterThanOrEqual(0.9)
  })

  it.each(cases)(
    'stops and prints as enumerated on 100 seeded runs of the gate: $name',
    async ({ truth, overrides }) => {
      const options = sequentialGate(overrides)
      const { belowAtMost, aboveAtLeast } = sequentialBoundaries(options.bound, ALPHA, options.maxRollouts)
      const isStop = (successes: number, n: number) =>
        successes <= (belowAtMost[n] ?? -1) || successes >= (aboveAtLeast[n] ?? n + 1)
      const agent = coinAgent(truth).on({ p: truth })
      for (let seed = 0; seed < 100; seed++) {
        const recording = recordingSubject()
        const { verdict } = await runSequentialGate(
          agent,
          recording.subject,
          sequentialGate({ seed, concurrency: 1, ...overrides }),
        )
        const outcomes = recording.inOrder()
        expect(outcomes.length).toBe(verdict.observed.n)
        expect(verdict.observed).toEqual(printedSequence(stopOn(outcomes, isStop, options.maxRollouts)))
      }
    },
  )

  it('where the Wilson interval it replaced fell short: a true 10% under "≤ 5%"', () => {
    // The audit's case: stopping early to fail, a Wilson 95% interval at the stop covered 85–90%.
    // Exactly: 85.17%, where the printed sequence covers 98.61%. The exact sum catches it.
    const stops = sequentialStops(0.1, sequentialGate())
    const fixed = exactCoverage(stops, 0.1, (stop) => wilson(stop.successes, stop.n, 0.95))
    expect(fixed).toBeLessThan(0.9)
    expect(exactCoverage(stops, 0.1, printedSequence)).toBeGreaterThan(0.95)
    // The point is still from the stop, which leans toward the verdict (every rendering says so).
    const meanPoint = stops.reduce((sum, stop) => sum + (stop.probability * stop.successes) / stop.n, 0)
    expect(meanPoint).toBeGreaterThan(0.12)
  })
})

/** Where a zero-tolerance gate of `rollouts` stops on a coin of rate `truth`: the first occurrence, or the end. */
function zeroToleranceStops(truth: number, rollouts: number): Stop[] {
  const stops: Stop[] = Array.from({ length: rollouts }, (_, index) => ({
    successes: 1,
    n: index + 1,
    probability: (1 - truth) ** index * truth,
  }))
  return [...stops, { successes: 0, n: rollouts, probability: (1 - truth) ** rollouts }]
}

/** The 1 − 2α Clopper–Pearson interval a zero-tolerance gate prints. */
const printedClopperPearson = (stop: Pick<Stop, 'successes' | 'n'>) =>
  clopperPearson(stop.successes, stop.n, 1 - 2 * ALPHA)

describe("a zero-tolerance gate's printed rate interval", () => {
  it('is two-sided at 1 − 2α: its upper end is the one-sided bound the pass line prints', async () => {
    const { verdict } = await runZeroToleranceGate(coinAgent(0).on({ p: 0 }), subject(), zeroToleranceGate())
    expect(verdict.kind).toBe('pass')
    expect(verdict.observed.confidence).toBeCloseTo(0.9, 12)
    expect(verdict.observed.high).toBe(verdict.oneSidedBound?.high)
  })

  // Exact coverage of the 90% Clopper–Pearson interval at the stop: 95.12%, 95.10%, 92.25%.
  it.each([0.002, 0.01, 0.03])(
    'covers at its stated level when the first occurrence stops it, exactly: true rate %d',
    (truth) => {
      expect(
        exactCoverage(zeroToleranceStops(truth, 100), truth, printedClopperPearson),
      ).toBeGreaterThanOrEqual(0.9)
    },
  )

  it.each([0.002, 0.01, 0.03])(
    'stops and prints as enumerated on 150 seeded runs of the gate: true rate %d',
    async (truth) => {
      const agent = coinAgent(truth).on({ p: truth })
      for (let seed = 0; seed < 150; seed++) {
        const recording = recordingSubject()
        const { verdict } = await runZeroToleranceGate(
          agent,
          recording.subject,
          zeroToleranceGate({ seed, concurrency: 1 }),
        )
        const outcomes = recording.inOrder()
        expect(outcomes.length).toBe(verdict.observed.n)
        expect(verdict.observed).toEqual(
          printedClopperPearson(stopOn(outcomes, (successes) => successes > 0, 100)),
        )
      }
    },
  )
})
