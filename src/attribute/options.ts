import { isAgent, toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { InvalidOptionError } from '../errors.js'
import { deriveSeed } from '../random/streams.js'
import type { ToolMode } from '../replay/plan.js'
import type { Budget, BudgetLimits } from '../rollout/budget.js'
import { resolveRolloutOptions, type RolloutProgress } from '../rollout/options.js'
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
 * Checks the target, the factual run and the shared options. `caller` names the function in
 * messages. The scenario replayed is the factual run's agent on the factual run's input.
 */
export function resolveAttributionOptions(
  caller: string,
  target: AgentOrScenario,
  factual: Trajectory,
  options: AttributionOptions,
): ResolvedAttributionOptions {
  // The factual run carries its input, so an agent without a default input is fine here.
  const agent = isAgent(target) ? target : toScenario(target, caller).agent
  checkFactual(caller, agent.name, factual)
  if (typeof options?.isBad !== 'function') {
    throw new InvalidOptionError(
      `${caller}: \`isBad\` must be a function (trajectory) => boolean, the outcome to explain.`,
    )
  }
  const confidence = options.confidence ?? 0.95
  if (!(confidence > 0 && confidence < 1)) {
    throw new InvalidOptionError(
      `${caller}: \`confidence\` must be in (0, 1), e.g. 0.95, got ${String(confidence)}.`,
    )
  }
  const tools = options.tools ?? 'live'
  if (tools !== 'live' && tools !== 'recorded') {
    throw new InvalidOptionError(
      `${caller}: \`tools\` must be 'live' or 'recorded', got ${JSON.stringify(tools)}.`,
    )
  }
  const rollout = resolveRolloutOptions({
    seed: options.seed ?? deriveSeed(factual.seed, `${caller}/${factual.rollout}`),
    ...pick(options, ['concurrency', 'timeoutMs', 'maxSteps', 'budget']),
  })
  return {
    scenario: agent.on(factual.input) as Scenario<unknown, unknown>,
    isBad: options.isBad,
    confidence,
    seed: rollout.seed,
    budget: rollout.budget,
    concurrency: rollout.concurrency,
    tools,
    timeoutMs: rollout.timeoutMs,
    maxSteps: rollout.maxSteps,
    signal: options.signal,
    onProgress: options.onProgress,
  }
}

/** A positive integer option, or a message naming it. */
export function positiveIntegerOption(caller: string, option: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidOptionError(`${caller}: \`${option}\` must be a positive integer, got ${String(value)}.`)
  }
  return value
}

/** A boolean option, or a message naming it. */
export function booleanOption(caller: string, option: string, value: boolean): boolean {
  if (typeof value !== 'boolean') {
    throw new InvalidOptionError(
      `${caller}: \`${option}\` must be true or false, got ${JSON.stringify(value)}.`,
    )
  }
  return value
}

/** One of a few allowed strings, or a message listing them. */
export function enumOption<T extends string>(
  caller: string,
  option: string,
  value: T,
  allowed: readonly T[],
): T {
  if (!allowed.includes(value)) {
    throw new InvalidOptionError(
      `${caller}: \`${option}\` must be ${allowed.map((name) => `'${name}'`).join(', ')}, got ${JSON.stringify(value)}.`,
    )
  }
  return value
}

function checkFactual(caller: string, agentName: string, factual: Trajectory): void {
  if (typeof factual !== 'object' || factual === null || !Array.isArray(factual.steps)) {
    throw new InvalidOptionError(
      `${caller}: \`factual\` must be a trajectory (from record() or readTrajectory()).`,
    )
  }
  if (factual.agent !== agentName) {
    throw new InvalidOptionError(
      `${caller}: the factual run was recorded from agent "${factual.agent}", not "${agentName}"; pass the agent that recorded it.`,
    )
  }
  if (factual.error !== undefined) {
    throw new InvalidOptionError(
      `${caller}: the factual run ended in an error (${factual.error.kind}: ${factual.error.message}); attribute a run that finished.`,
    )
  }
}

// `exactOptionalPropertyTypes` forbids passing `undefined` for an absent option; copy only set ones.
function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {}
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key]
  return picked
}
