import type { z } from 'zod'
import { isAgent, toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { InvalidOptionError } from '../errors.js'
import { DEFAULTS } from '../options/defaults.js'
import { ConfidenceField, functionField } from '../options/fields.js'
import type { DescribesSchema } from '../options/parse-options.js'
import { describeReceived } from '../options/received.js'
import { deriveSeed } from '../random/streams.js'
import type { ToolMode } from '../replay/plan.js'
import { ToolModeField } from '../replay/replay.js'
import type { Budget, BudgetLimits } from '../rollout/budget.js'
import { rolloutFields, type RolloutProgress } from '../rollout/options.js'
import type { Predicate } from '../trajectory/queries.js'
import type { Trajectory } from '../trajectory/schema.js'

/** Options every attribution takes (contrastive and Shapley). */
export interface AttributionOptions {
  /** The outcome to explain: true when a trajectory is bad. May be async (an LLM judge). */
  isBad: Predicate
  /** Default 0.95. Confidence of every interval; tests run at level 1 − confidence. */
  confidence?: number
  /**
   * Default: derived from the factual run's seed and rollout, so the same call gives the same
   * result. The replay seed: with the same seed, byte-identical results at any concurrency.
   */
  seed?: number
  /** Default: unlimited. Limits, or a `Budget` shared with the gate; a spent budget stops cleanly (`truncated`). */
  budget?: Budget | BudgetLimits
  /** Default 8. Rollouts in flight at once, over the whole attribution. */
  concurrency?: number
  /** Default `'live'`. Tool calls of held steps run live, or (`'recorded'`) are answered from the recording. */
  tools?: ToolMode
  /** Default 60 000. A replayed rollout running longer is an error outcome (not scored). */
  timeoutMs?: number
  /** Default 100. A replayed rollout taking more steps is an error outcome (not scored). */
  maxSteps?: number
  /** Default: none. Aborting stops the rollouts in flight; the call then throws a RolloutAbortedError. */
  signal?: AbortSignal | undefined
  /** Default: none. Called after each rollout; `total` is the most the attribution can spend. */
  onProgress?: ((progress: RolloutProgress) => void) | undefined
}

/** {@link AttributionOptions} checked, with every default filled in. */
export interface ResolvedAttributionOptions {
  scenario: Scenario<unknown, unknown>
  isBad: Predicate
  confidence: number
  seed: number
  budget: Budget
  concurrency: number
  tools: ToolMode
  timeoutMs: number
  maxSteps: number
  signal: AbortSignal | undefined
  onProgress: ((progress: RolloutProgress) => void) | undefined
}

/**
 * The fields of {@link AttributionOptions}, defaults filled in; `contrastive` and `shapley` each
 * add theirs to make one strict schema. `seed` stays optional: its default derives from the
 * factual run.
 */
export const attributionFields = {
  isBad: functionField<Predicate>('a function (trajectory) => boolean, the outcome to explain'),
  confidence: ConfidenceField.default(DEFAULTS.confidence),
  seed: rolloutFields.seed,
  budget: rolloutFields.budget,
  concurrency: rolloutFields.concurrency,
  tools: ToolModeField.default(DEFAULTS.tools),
  timeoutMs: rolloutFields.timeoutMs,
  maxSteps: rolloutFields.maxSteps,
  signal: rolloutFields.signal,
  onProgress: rolloutFields.onProgress,
}

// The shared options alone: what `resolveAttributionOptions` takes, and what the interface documents.
type AttributionOptionsSchema = z.ZodObject<typeof attributionFields, z.core.$strict>
const _sameOptions: DescribesSchema<AttributionOptions, AttributionOptionsSchema> = true

/** The shared options as the attribution schemas parse them (the `seed` still unchosen). */
export type ParsedAttributionOptions = z.output<AttributionOptionsSchema>

/**
 * Checks the target and the factual run, and completes the parsed shared options. `caller` names
 * the function in messages. The scenario replayed is the factual run's agent on the factual run's
 * input.
 */
export function resolveAttributionOptions(
  caller: string,
  target: AgentOrScenario,
  factual: Trajectory,
  parsed: ParsedAttributionOptions,
): ResolvedAttributionOptions {
  // The factual run carries its input, so an agent without a default input is fine here.
  const agent = isAgent(target) ? target : toScenario(target, caller).agent
  checkFactual(caller, agent.name, factual)
  return {
    scenario: agent.on(factual.input) as Scenario<unknown, unknown>,
    isBad: parsed.isBad,
    confidence: parsed.confidence,
    seed: parsed.seed ?? deriveSeed(factual.seed, `${caller}/${factual.rollout}`),
    budget: parsed.budget,
    concurrency: parsed.concurrency,
    tools: parsed.tools,
    timeoutMs: parsed.timeoutMs,
    maxSteps: parsed.maxSteps,
    signal: parsed.signal,
    onProgress: parsed.onProgress,
  }
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
