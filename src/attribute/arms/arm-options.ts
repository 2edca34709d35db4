// The options the paired-arms engine samples and stops by: its own, so that the engine reads them
// from here and the attributions that run it (contrastive, context) build their schemas from them.
import { z } from 'zod'
import { DEFAULTS } from '../../options/defaults.js'
import { BooleanField, expecting, PositiveIntegerField } from '../../options/fields.js'
import type { StrictOptions } from '../../options/parse-options.js'

/**
 * How the paired arms of an attribution sample (contrastive and context attribution alike): how
 * many rollouts an arm may run, whether arms share random numbers and whether they stop early.
 */
export const armSamplingFields = {
  /**
   * Default 32. The most rollouts per arm (the baseline and each resampled step, or the intact arm,
   * each part and each refinement probe); sequential arms stop sooner. A sequential binary search
   * may extend the undecided probe right after its latest rescue (and the baseline with it) to
   * twice this; a run that does spends at most n × `rollouts`.
   */
  rollouts: PositiveIntegerField.default(DEFAULTS.contrastiveRollouts),
  /**
   * Default true. Common random numbers: every arm replays with the same seed and rollout indices,
   * so rollout r of each arm draws later step j from the same stream (r, j) and arms are compared
   * pair by pair. False gives each arm its own seed (independent arms, Newcombe intervals).
   */
  crn: BooleanField.default(DEFAULTS.crn),
  /**
   * Default true. Rollouts come in batches of `batchSize` per arm, and an arm stops once its
   * anytime-valid tests decide (a rescue, a worsening, or no effect of `minEffect` or more). False spends
   * exactly `rollouts` per evaluated arm and uses fixed-sample intervals (Tango or Newcombe).
   */
  sequential: BooleanField.default(DEFAULTS.sequential),
}

/** The sequential stop rules of paired arms (contrastive and context attribution). */
export const armStopFields = {
  /**
   * Default 0.25. Sequential only: an arm stops as negligible once its anytime-valid tests rule
   * out an effect of this size in either direction (P(bad) changed by `minEffect` or more against
   * the reference arm). A step that rescues by `minEffect` or more is stopped this way with
   * probability ≤ 1 − confidence. Smaller values detect weaker rescues and spend more rollouts on
   * steps that cannot rescue.
   */
  minEffect: expecting(
    z.number().gt(0).lte(1),
    `a change of P(bad) in (0, 1], e.g. ${DEFAULTS.minEffect}`,
  ).default(DEFAULTS.minEffect),
  /** Default 4. Sequential only: rollouts per arm between two looks at the data. */
  batchSize: PositiveIntegerField.default(DEFAULTS.batchSize),
  /**
   * Default 0. Sequential only: rounds of `concurrency` replays that run ahead of the look in
   * flight (each running arm's next batch, as if none stopped), so the slots its slowest replays
   * leave free are not idle. It trades money for time: a look decides on the same replays as
   * without it (results are identical), but what ran ahead for an arm that then stops is cut off,
   * and its model calls are paid for. Measured on heavy-tailed latency at concurrency 8: 2 rounds
   * took a failing claim's attribution from about 4.1–4.9× the work-conserving limit to 2.6–3.1×,
   * and started about 50–60% more replays than it used.
   */
  runAhead: expecting(z.number().int().nonnegative(), 'a whole number of rounds ≥ 0, e.g. 2').default(
    DEFAULTS.runAhead,
  ),
}

/** The arm-sampling options, parsed. */
export type ArmSampling = z.output<StrictOptions<typeof armSamplingFields & typeof armStopFields>>

/** Every arm-sampling option at its default: what the matchers' attribution runs with. */
export const ARM_SAMPLING_DEFAULTS: ArmSampling = z
  .strictObject({ ...armSamplingFields, ...armStopFields })
  .parse({})
