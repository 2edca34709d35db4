import type { Dataset } from '../dataset/schema.js'
import type { Json, JsonObject } from '../json.js'
import type { Rng } from '../random/streams.js'

/**
 * What a policy sees besides its random stream. `seed` and `signal` are computed on first access
 * (getters), so read them from the view rather than spreading it.
 */
export interface StepView {
  /** The step's name, as passed to `ctx.step`. */
  readonly name: string
  /** The step's index in the run (0-based count of decisions). */
  readonly index: number
  /** The context the step decides from; `editContext` may have changed it. */
  readonly context: Json | undefined
  /** A 31-bit integer from the step's stream, for providers that take a `seed` call option. */
  readonly seed: number
  /** Aborted when the rollout times out, is cancelled or the budget is spent. */
  readonly signal: AbortSignal
}

/**
 * A stochastic decision function: given the step's own PRNG stream and its view, return the action
 * (any JSON value). A model call in an LLM agent, a seeded choice in a synthetic one.
 */
export type Policy<A extends Json = Json> = (rng: Rng, view: StepView) => A | Promise<A>

/** Options of `ctx.step`. */
export interface StepOptions<A extends Json = Json> {
  /** Default: none. What the step decides from (e.g. the message list); recorded with a digest. */
  context?: Json
  /** Default: none. Cost in USD of a policy call that returned `action`; counts against `budget.maxCostUsd`. */
  costUsd?: (action: A) => number
  /** Default: none. Facts to record with the step (token usage, model id, …). */
  meta?: (action: A) => JsonObject
  /**
   * Default: none. The action with what its stream delivered in pieces joined (a tool call's
   * argument deltas as one delta), replaying to the agent as the action does. A cassette that
   * redacts stores this form, so a key or a secret split across pieces is found whole; adapters
   * set it for streamed model calls.
   */
  joinStreamed?: (action: A) => Json
  /**
   * Default: none. The model this step calls; adapters set it. It marks the step as a model call:
   * cacheable by default (see `cache`), counted as a model call in cost lines, held to rate limits.
   */
  model?: string
  /**
   * Default: true for a step with `model`, false otherwise. Whether a cassette in use may answer
   * this step from an earlier run (keyed by model, step name, context and stream) and record it.
   * A user step opts in with `ctx.step(name, policy, { context, cache: true })`.
   */
  cache?: boolean
}

/** Options of `ctx.tool`. */
export interface ToolOptions {
  /**
   * Default false. Whether a cassette in use may answer this call from an earlier run (keyed by
   * tool name, arguments and where the call sits: seed, rollout, step, position) and record it.
   * For tools that are slow or cost money and whose result depends only on their arguments.
   */
  cache?: boolean
}

/** Which run a rollout is. */
export interface RolloutInfo {
  /** The run seed. */
  readonly seed: number
  /** The rollout's index in its run. */
  readonly index: number
}

/** What an agent's `run` gets: the only doors to randomness and to the outside world. */
export interface AgentContext {
  /**
   * One decision. Outside replay it calls `policy` with the step's own stream; during replay a
   * held step returns the recorded action instead, a forced step the forced one.
   */
  step<A extends Json>(name: string, policy: Policy<A>, options?: StepOptions<A>): Promise<A>
  /**
   * One tool call (an observation), attached to the preceding step. `args` and the result must be
   * JSON (the result may also be undefined). Replay may answer it from the recording or replace it.
   */
  tool<R extends Json | undefined>(
    name: string,
    args: Json,
    impl: (args: Json) => R | Promise<R>,
    options?: ToolOptions,
  ): Promise<R>
  /** Aborted when the rollout times out, is cancelled or the budget is spent; pass it to I/O. */
  readonly signal: AbortSignal
  /** The seed and index of this rollout. */
  readonly rollout: RolloutInfo
}

/** What `defineAgent` takes. The input must be a JSON value (it is recorded with every run). */
export interface AgentDefinition<I = Json, O = unknown> {
  /** Shown in messages and used for report paths. */
  name: string
  /** Default: none. The scenario input used when a function gets the agent itself. */
  input?: I
  /** The agent. Deterministic given its step actions and tool results: all randomness goes through `ctx.step`. */
  run(input: I, ctx: AgentContext): O | Promise<O>
}

/** An agent plus an input: what gets rolled out. */
export interface Scenario<I = Json, O = unknown> {
  readonly kind: 'scenario'
  readonly agent: Agent<I, O>
  readonly input: I
}

/**
 * An agent over a dataset's cases: what `agent.over(dataset)` returns. Each rollout runs one case,
 * rollout r case `roundOrder(seed, ⌊r/N⌋)[r mod N]` of the N cases (every case once before any
 * case twice), and its trajectory's `case` names it; a claim about it is about the mean rate over
 * the cases. Accepted wherever a scenario is. `input` is the first case's input, for code that
 * reads one; no rollout uses it.
 */
export interface DatasetScenario<I = Json, O = unknown> extends Scenario<I, O> {
  /** The dataset whose cases the rollouts run. */
  readonly dataset: Dataset<I>
}

/** A defined agent. `agent.on(input)` is a scenario, `agent.over(dataset)` one over a dataset's cases. */
export interface Agent<I = Json, O = unknown> {
  readonly kind: 'agent'
  readonly name: string
  readonly input: I | undefined
  run(input: I, ctx: AgentContext): O | Promise<O>
  /** The scenario of this agent on `input`. */
  on(input: I): Scenario<I, O>
  /** The scenario of this agent over a dataset's cases (see {@link DatasetScenario}). */
  over(dataset: Dataset<I>): DatasetScenario<I, O>
}
