import type { AgentOrScenario } from '../../agent/define-agent.js'
import { hold, resample } from '../../replay/interventions.js'
import { planFor } from '../../replay/plan.js'
import type { Trajectory } from '../../trajectory/schema.js'
import { sequentialEffectMethod } from '../arms/arm-comparison.js'
import { PairedArms, type TestedArm } from '../arms/paired-arms.js'
import { EXTEND_BELOW, PROBE_CAP_TESTS, PROBE_E_PROCESS_SHARE } from '../arms/probe-tests.js'
import { pairedCounts, type Arm } from '../arms/replay-arms.js'
import { contrastiveRollouts } from '../estimate-rollouts.js'
import type { ContrastiveResult, ContrastiveStep } from '../schema.js'
import {
  resolveContrastiveOptions,
  type ContrastiveOptions,
  type ResolvedContrastiveOptions,
} from './contrastive-options.js'

/**
 * Contrastive attribution: which step decided that `factual` went bad?
 *
 * The baseline replays `factual` with every step held, K times; its bad rate is the replay fidelity.
 * Each arm k replays `resample(k)`: steps before k held, step k drawn afresh, the rest run. The
 * effect of step k is P(bad | resample(k)) − P(bad | baseline); a negative effect means redrawing
 * step k rescues the run. Each step gets a one-sided test of "resampling rescues" (H1: effect < 0),
 * Holm-adjusted over all n steps (a step the search did not evaluate counts with p = 1, which keeps
 * Holm valid however the evaluated steps were chosen). The **causal locus** is the latest step whose
 * rescue is significant; a step whose interval lies above 0 is reported as `worsens`, never counted.
 * The marginal rescue of step k alone is P(bad | resample(k+1)) − P(bad | resample(k)) (for the last
 * step, the baseline against resample(k)).
 *
 * Common random numbers (`crn`, default): every arm uses the same seed and rollout indices, so
 * rollout r of each arm draws each later step j from the same stream (r, j): a pair of rollouts
 * differs only through what step k's redraw changed. Most pairs are then concordant and carry no
 * noise; only discordant pairs — where the redraw changed the outcome — carry evidence.
 *
 * Sequential sampling (default): arms advance in batches of `batchSize` up to `rollouts`. After each
 * batch an arm stops when its test is decided:
 * - rescue: the paired betting e-process against H0: P(bad | arm) ≥ P(bad | baseline) gives an
 *   anytime-valid p-value (1 / its running maximum), and the arm stops once Holm's procedure over
 *   the current p-values rejects it. Holm is monotone and these p-values only fall, so a rejection
 *   made early stands at the end. At this null a concordant pair leaves the e-value unchanged: the
 *   test is a sequential sign test on discordant pairs.
 * - worsens: the effect's confidence sequence lies above 0 (reported, never the locus).
 * - negligible: the e-processes against H0: effect ≤ −minEffect and H0: effect ≥ +minEffect both
 *   reach 1 / α (two one-sided tests). Every concordant pair raises both, so a step that never
 *   changes the outcome stops after 14 pairs (minEffect 0.25, α = 0.05). A step that truly rescues
 *   by `minEffect` or more is stopped this way with probability ≤ α. These rules only ever stop an
 *   arm without rejecting, so they cannot add false rescues.
 * - the cap: `rollouts` pairs.
 * Binary search adds fixed-sample tests (see {@link PROBE_CAP_TESTS}): a probe it cannot decide by
 * the cap still gets the exact sign test of its `rollouts` pairs, and an undecided probe after the
 * latest rejection, which decides the answer, may be extended to twice that and get a second exact
 * sign test there; the step's level is split 0.6 / 0.3 between the two, the e-process keeping 0.1.
 * Reported effects are then anytime-valid confidence sequences, valid at the data-dependent stop.
 * The e-values and confidence sequences are time-uniform over each arm's own i.i.d. pairs (pairs
 * at different rollout indices share no streams), so they hold at any stopping time at all —
 * also one that depends on other arms, as when binary search evaluates arms one after another.
 * With `sequential: false` each evaluated arm runs exactly `rollouts` rollouts and effects use
 * Tango's paired score interval (CRN) or Newcombe's interval (independent arms).
 *
 * Rollouts that end in an error are counted in `rolloutsUsed` but never scored: they are left out of
 * P(bad), and a pair with an error on either side is not evaluated (it counts as neither concordant
 * nor discordant).
 *
 * Budget: every rollout is charged before it starts, in a fixed order (the baseline, then arms from
 * the last step back). When the budget is spent the attribution stops cleanly and returns what it
 * has with `truncated: true` — it does not throw. The locus is then reported only if it is already
 * established (linear search: every later step decided; binary search: the search finished);
 * otherwise it is null (abstain) rather than a guess.
 *
 * Deterministic: the same seed gives a byte-identical result at any concurrency (decisions are made
 * at looks on the looked-at batches alone; rollouts run ahead for the next looks count only once a
 * look asks for them).
 */
export async function contrastive(
  target: AgentOrScenario,
  factual: Trajectory,
  options: ContrastiveOptions,
): Promise<ContrastiveResult> {
  return (await contrastiveArms(factual, resolveContrastiveOptions(target, factual, options))).result
}

/**
 * {@link contrastive} on options already resolved (the matchers' attribution resolves them once),
 * and the arm of each step: the rollouts of `resample(k)` it ran under its seed, which a context
 * attribution of the locus with the same seed reuses as its intact arm instead of running them
 * again (see `contextAttributionResolved`).
 */
export async function contrastiveArms(
  factual: Trajectory,
  resolved: ResolvedContrastiveOptions,
): Promise<{ result: ContrastiveResult; arms: readonly Arm[] }> {
  const run = new ContrastiveRun(factual, resolved)
  const result = await run.run()
  return { result, arms: run.stepArms() }
}

/** A step's arm, `resample(index)`, under test against the baseline. */
interface StepArm extends TestedArm {
  readonly index: number
}

class ContrastiveRun {
  private readonly engine: PairedArms
  private readonly steps: StepArm[]

  constructor(
    private readonly factual: Trajectory,
    private readonly options: ResolvedContrastiveOptions,
  ) {
    const { tools, rollouts } = options
    this.engine = new PairedArms(
      options,
      planFor(factual, hold('all'), tools),
      'baseline',
      'contrastive',
      contrastiveRollouts(factual.steps.length, options).maxRollouts,
    )
    // Binary search adds exact sign tests at fixed sizes, which take most of each step's level.
    const binary = options.search === 'binary'
    const design = binary
      ? {
          eProcessShare: PROBE_E_PROCESS_SHARE,
          fixedTests: PROBE_CAP_TESTS.map((test) => ({ pairs: test.size * rollouts, share: test.share })),
        }
      : {}
    this.steps = factual.steps.map((_, index) => ({
      index,
      ...this.engine.tested(
        this.engine.arm(planFor(factual, resample(index), tools), `resample/${index}`),
        design,
      ),
    }))
  }

  /** Each step's arm, by step index. */
  stepArms(): readonly Arm[] {
    return this.steps.map((step) => step.arm)
  }

  async run(): Promise<ContrastiveResult> {
    if (this.options.search === 'linear') {
      for (const step of this.steps) step.state = 'running'
      await this.advance(this.steps)
    } else {
      await this.binarySearch()
    }
    return this.result()
  }

  /**
   * Binary search for the latest rescuing step, assuming rescue is monotone (a prefix of steps).
   * Each probe ends in one of three ways: a rescue (Holm rejects it: go right), a decided "no
   * rescue" (`negligible` or `worsens`: go left), or undecided at its cap, which goes right when its
   * pairs lean toward a rescue ({@link leansRescue}) and left otherwise. When the search ends, it
   * confirms the bracket: the unevaluated steps between the latest rejected step and the next
   * evaluated one are searched again, so the step after the reported locus is always evaluated and
   * not rejected. That brings the search back to a gap it skipped over a leaning probe that did not
   * pan out, and to a step that failed Holm when it was evaluated but passes at the end (Holm's
   * thresholds relax as more steps are rejected). Once the bracket is closed, a step after the
   * latest rejection that ended undecided leaning toward a rescue keeps sampling
   * ({@link extensionCandidate}, {@link extend}); if it is then rejected, the bracket moves past it
   * and the search goes on.
   *
   * Why the locus keeps its error rate whatever the search does: the locus is the latest step Holm
   * rejects over all n steps, each with a p-value valid at any stopping time (a step never evaluated
   * has p = 1, itself valid). Holm needs nothing about how the p-values depend on each other or on
   * which steps were chosen, so the chance that any non-rescuing step — the reported locus among
   * them — is declared a rescue stays at most 1 − confidence. Navigation rules (leaning, re-opening,
   * extending) only choose which steps get data; they never lower a threshold. Spending α per probe
   * instead of per step would need each probe's test to be valid given the earlier probes, which the
   * shared baseline (and, under CRN, shared streams) does not give.
   */
  private async binarySearch(): Promise<void> {
    const n = this.steps.length
    let low = 0
    let high = n - 1
    for (;;) {
      while (low <= high) {
        const middle = Math.floor((low + high) / 2)
        const step = this.steps[middle] as StepArm
        step.state = 'running'
        await this.advance([step])
        if (this.engine.truncated) return
        if (this.rejected()[middle] || this.leansRescue(step)) low = middle + 1
        else high = middle - 1
      }
      const rejected = this.rejected()
      const latest = rejected.lastIndexOf(true)
      const nextEvaluated = this.steps.findIndex((step) => step.index > latest && step.state !== 'idle')
      low = latest + 1
      high = (nextEvaluated === -1 ? n : nextEvaluated) - 1
      if (low > high) {
        const candidate = this.extensionCandidate(latest)
        if (candidate === undefined || !this.extend(candidate, latest)) return
        await this.advance([candidate])
        if (this.engine.truncated) return
      }
    }
  }

  /**
   * The probe to extend once the bracket is closed: among the evaluated steps after the latest
   * rejection, up to the first that cannot be extended, the last. Those steps all ended undecided
   * leaning clearly toward a rescue, and under monotone rescue the latest of them that truly
   * rescues is the locus, so the latest goes first: if it is rejected, the locus moves past every
   * one of them at once; if not, it can no longer be extended and the next one back is tried.
   * Starting from the step after the latest rejection instead walks right one rejection at a time,
   * which spends the ceiling before it reaches the locus when many earlier steps are undecided too.
   */
  private extensionCandidate(latest: number): StepArm | undefined {
    let candidate: StepArm | undefined
    for (const step of this.steps.slice(latest + 1)) {
      if (step.state === 'idle') continue
      if (this.nextCap(step) === undefined) break
      candidate = step
    }
    return candidate
  }

  /**
   * Extends `step` when the next size of {@link PROBE_CAP_TESTS} fits the search's ceiling: its arm
   * (and the baseline) keep sampling up to that size, which adds that size's exact sign test. On a
   * noisy replay this is where a binary search loses the locus: a real rescue short of Holm's first
   * threshold at `rollouts` pairs, on a step that decides the answer. Extending only such a step,
   * and only once the bracket is closed, spends the extra pairs where they can change the locus;
   * extending every leaning probe would spend them on steps after the locus, which lean by chance
   * half the time. Nothing here touches a test: the extension only decides which pairs get drawn,
   * and the sizes and shares of the tests are fixed in advance.
   *
   * The ceiling keeps the worst case within fixed linear search: an extension is made only if the
   * rollouts charged so far, the extension (arm and baseline) and `rollouts` for every unevaluated
   * step the search can still reach stay within n × `rollouts` (fixed linear search spends
   * (n + 1) × `rollouts`). The search only probes the gap between the latest rejection and the next
   * evaluated step, so a step can still be reached only if it lies after the latest rejection and
   * before the first evaluated step that can never be rejected: stopped, not extendable, and with a
   * raw p-value above α (a stopped arm's p-value is final, and Holm's thresholds never exceed α). So
   * a run that extends a probe spends at most n × `rollouts`, and one that does not, at most
   * (n + 1) × `rollouts` as before.
   */
  private extend(step: StepArm, latest: number): boolean {
    const { rollouts } = this.options
    const next = this.nextCap(step)
    if (next === undefined) return false
    const { alpha, reference } = this.engine
    let reachable = 0
    for (const later of this.steps.slice(latest + 1)) {
      if (later.state === 'idle') reachable++
      else if (this.engine.rawPValue(later) > alpha && this.nextCap(later) === undefined) break
    }
    const charged = reference.requested + this.steps.reduce((sum, other) => sum + other.arm.requested, 0)
    const projected =
      charged + (next - step.arm.requested) + Math.max(0, next - reference.requested) + reachable * rollouts
    if (projected > this.steps.length * rollouts) return false
    step.cap = next
    step.state = 'running'
    return true
  }

  /**
   * The size the search may extend `step` to: the next of {@link PROBE_CAP_TESTS} above its cap,
   * for a sequential probe that ended undecided at its cap leaning clearly toward a rescue (its
   * sign test at the cap at most {@link EXTEND_BELOW}); undefined when the step can never be
   * extended (its data, and so this answer, are final once it stopped).
   */
  private nextCap(step: StepArm): number | undefined {
    const { rollouts, sequential } = this.options
    if (!sequential || step.state !== 'capped') return undefined
    if ((step.fixedPValues[0] ?? 1) > EXTEND_BELOW) return undefined
    return PROBE_CAP_TESTS.map((test) => test.size * rollouts).find((size) => size > step.cap)
  }

  /**
   * Where an undecided probe sends the search. A probe that stopped `negligible` or `worsens` is a
   * decided "no rescue"; one that reached its cap undecided is not, and sending it left (as if it
   * were decided) loses the true step for good whenever a real rescue fell short of significance.
   * So an undecided probe whose pairs point toward a rescue (more rescued than worsened pairs) sends
   * the search right; if nothing significant turns up there, the re-opening in
   * {@link binarySearch} comes back to the gap between the latest rejection and this probe. This
   * steers only which steps are evaluated: no claim rests on it, and Holm is unaffected.
   */
  private leansRescue(step: StepArm): boolean {
    if (step.state !== 'capped') return false
    const counts = pairedCounts(step.arm, this.engine.reference)
    return counts.better > counts.worse
  }

  /**
   * Runs batches for the running steps of `group` until none is running or the budget is spent.
   * Later steps first: if the budget runs out mid-batch, the steps that decide the locus ran.
   */
  private async advance(group: readonly StepArm[]): Promise<void> {
    await this.engine.advance([...group].reverse(), () => {
      const rejected = this.rejected()
      return (step) => rejected[step.index] === true
    })
  }

  /**
   * Holm over all n steps of the raw one-sided p-values of "resampling step k rescues" (1 for a
   * step not evaluated). Sequential binary search combines the e-process with the exact tests at
   * fixed sizes by weighted Bonferroni ({@link PROBE_CAP_TESTS}); linear search keeps the e-process
   * alone, since it decides no branch on a single probe.
   */
  private rejected(): boolean[] {
    return this.engine.holmAdjusted(this.steps).map((p) => p <= this.engine.alpha)
  }

  private result(): ContrastiveResult {
    const { factual, options, engine } = this
    const binary = options.search === 'binary'
    const extendedSizes = PROBE_CAP_TESTS.slice(1).map((test) => test.size * options.rollouts)
    const capSizes = extendedSizes.join(', ')
    const capShares = PROBE_CAP_TESTS.map((test) => test.share).join(' / ')
    const adjusted = engine.holmAdjusted(this.steps)
    const baselineErrors = engine.reference.errors()
    const steps = this.steps.map((step): ContrastiveStep => {
      const recorded = factual.steps[step.index]
      const report = engine.report(step, adjusted[step.index] ?? 1)
      const later = this.steps[step.index + 1]
      // The marginal rescue of step k: against step k + 1's arm, or the baseline for the last step.
      const next = later === undefined ? engine.reference : later.arm
      const nextEvaluated = later === undefined || later.arm.rolloutsRun > 0
      return {
        index: step.index,
        name: recorded?.name ?? '',
        action: recorded?.action ?? null,
        ...report,
        rescues: report.evaluated && nextEvaluated ? engine.compare(next, step.arm) : null,
        rolloutsUsed: step.arm.rolloutsRun,
      }
    })
    return {
      kind: 'contrastive',
      ...engine.subject(factual),
      steps,
      locus: this.locus(steps),
      baseline: engine.rate(engine.reference),
      ...(baselineErrors === undefined ? {} : { baselineErrors }),
      ...engine.spend(this.stepArms()),
      rolloutsPerStep: options.rollouts,
      search: options.search,
      ...engine.design(
        binary
          ? sequentialEffectMethod(PROBE_E_PROCESS_SHARE, 'an exact sign test of the step')
          : sequentialEffectMethod(),
        binary
          ? `; an arm at its cap also gets an exact sign test of its ${options.rollouts} pairs, and an undecided step after the latest rescue whose sign test there is at most ${EXTEND_BELOW} may be extended to ${capSizes} pairs with an exact sign test there (each step's level split ${capShares} sign tests, ${PROBE_E_PROCESS_SHARE} e-process)`
          : '',
      ),
      truncated: engine.truncated,
    }
  }

  /**
   * The latest rescuing step, if the work done establishes it: a truncated linear search needs every
   * later step decided, a truncated binary search did not finish. Otherwise null: abstain.
   */
  private locus(steps: readonly ContrastiveStep[]): number | null {
    const latest = steps.findLastIndex((step) => step.direction === 'rescues')
    if (latest === -1) return null
    if (!this.engine.truncated) return latest
    if (this.options.search === 'binary') return null
    const undecided = this.steps.some(
      (step) => step.index > latest && (step.state === 'running' || step.state === 'idle'),
    )
    return undecided ? null : latest
  }
}
