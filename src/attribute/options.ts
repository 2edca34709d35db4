import type { z } from 'zod'
import { isAgent, toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { InvalidOptionError } from '../errors.js'
import { DEFAULTS } from '../options/defaults.js'
import { ConfidenceField, functionField } from '../options/fields.js'
import type { StrictOptions } from '../options/parse-options.js'
import { describeReceived } from '../options/received.js'
import { deriveSeed } from '../random/streams.js'
import { ToolModeField } from '../replay/plan.js'
import { rolloutFields, type Execution } from '../rollout/options.js'
import type { Predicate } from '../trajectory/queries.js'
import type { Trajectory } from '../trajectory/schema.js'

/**
 * The options every attribution takes (contrastive, Shapley and context attribution), defaults
 * filled in; each adds its own to make one strict schema. `seed` stays optional: its default
 * derives from the factual run.
 */
export const attributionFields = {
  /** The outcome to explain: true when a trajectory is bad. May be async (an LLM judge). */
  isBad: functionField<Predicate>('a function (trajectory) => boolean, the outcome to explain'),
  /** Default 0.95. Confidence of every interval; tests run at level 1 − confidence. */
  confidence: ConfidenceField.default(DEFAULTS.confidence),
  /**
   * Default: derived from the factual run's seed and rollout, so the same call gives the same
   * result. The replay seed: with the same seed, byte-identical results at any concurrency.
   */
  seed: rolloutFields.seed,
  /** Default: unlimited. Limits, or a `Budget` shared with the gate; a spent budget stops cleanly (`truncated`). */
  budget: rolloutFields.budget,
  /** Default 8. Rollouts in flight at once, over the whole attribution. */
  concurrency: rolloutFields.concurrency,
  /** Default `'live'`. Tool calls of held steps run live, or (`'recorded'`) are answered from the recording. */
  tools: ToolModeField.default(DEFAULTS.tools),
  /** Default 60 000. A replayed rollout running longer is an error outcome (not scored). */
  timeoutMs: rolloutFields.timeoutMs,
  /** Default 100. A replayed rollout taking more steps is an error outcome (not scored). */
  maxSteps: rolloutFields.maxSteps,
  /** Default: none. Aborting stops the rollouts in flight; the call then throws a RolloutAbortedError. */
  signal: rolloutFields.signal,
  /** Default: none. Called after each rollout; `total` is the most the attribution can spend. */
  onProgress: rolloutFields.onProgress,
}

/** The shared options alone: what the attribution schemas have in common. */
type AttributionOptionsSchema = StrictOptions<typeof attributionFields>

/** Options every attribution takes (contrastive and Shapley). */
export type AttributionOptions = z.input<AttributionOptionsSchema>

/** The shared options as the attribution schemas parse them (the `seed` still unchosen). */
export type ParsedAttributionOptions = z.output<AttributionOptionsSchema>

/**
 * {@link AttributionOptions} checked, with every default filled in: the seed chosen, and the
 * scenario replayed (the factual run's agent on the factual run's input). They hold the fields of
 * the attribution's execution context, from which its arms make it; the matchers' attribution
 * passes the gate's whole context, its deadline and `modelConcurrency` included.
 */
export type ResolvedAttributionOptions = ParsedAttributionOptions &
  Execution & {
    scenario: Scenario<unknown, unknown>
    seed: number
  }

/**
 * Checks the target and the factual run, and completes the parsed shared options. `caller` names
 * the function in messages. The scenario replayed is the factual run's agent on the factual run's
 * input.
 */
export function resolveAttributionOptions<Parsed extends ParsedAttributionOptions>(
  caller: string,
  target: AgentOrScenario,
  factual: Trajectory,
  parsed: Parsed,
): Parsed & ResolvedAttributionOptions {
  return {
    ...parsed,
    scenario: replayedScenario(caller, target, factual),
    seed: parsed.seed ?? deriveSeed(factual.seed, `${caller}/${factual.rollout}`),
  }
}

/**
 * The scenario an attribution replays: the factual run's agent on the factual run's input, after
 * checking that `factual` is a finished run of that agent.
 */
export function replayedScenario(
  caller: string,
  target: AgentOrScenario,
  factual: Trajectory,
): Scenario<unknown, unknown> {
  // The factual run carries its input, so an agent without a default input is fine here.
  const agent = isAgent(target) ? target : toScenario(target, caller).agent
  checkFactual(caller, agent.name, factual)
  return agent.on(factual.input) as Scenario<unknown, unknown>
}

function checkFactual(caller: string, agentName: string, factual: Trajectory): void {
  if (typeof factual !== 'object' || factual === null || !Array.isArray(factual.steps)) {
    throw new InvalidOptionError({
      caller,
      option: 'factual',
      expected: 'a trajectory (from record() or readTrajectory())',
      received: describeReceived(factual),
    })
  }
  if (factual.agent !== agentName) {
    throw new InvalidOptionError({
      caller,
      option: 'factual',
      expected: `a run of agent "${agentName}"`,
      received: `a run recorded from agent "${factual.agent}"`,
      hint: 'Pass the agent that recorded it.',
    })
  }
  if (factual.error !== undefined) {
    throw new InvalidOptionError({
      caller,
      option: 'factual',
      expected: 'a run that finished',
      received: `a run that ended in an error (${factual.error.kind}: ${factual.error.message})`,
    })
  }
}
