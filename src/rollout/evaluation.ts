import type { Policy, StepOptions, StepView } from '../agent/types.js'
import type { Cassette } from '../cassette/cassette.js'
import type { StepCallKey } from '../cassette/key.js'
import { entryRebuild } from '../cassette/redact-entry.js'
import { BudgetExceededError, CausalReplayError } from '../errors.js'
import { copyJson, type Json, type JsonObject } from '../json.js'
import { judgeProviderSeed, judgeStream } from '../random/streams.js'
import type { Trajectory } from '../trajectory/schema.js'
import { accountOf, Budget } from './budget.js'

/**
 * What a predicate that calls a model (a judge) may reach of the run it scores: the run's streams,
 * the cassette its agent ran through and the account its claim spends from. The engine registers
 * one for every trajectory it produces ({@link registerEvaluation}); a trajectory read from a file
 * gets {@link standaloneEvaluation}, the same streams with no cassette and its own account.
 */
export interface EvaluationContext {
  /** The run seed and rollout index of the trajectory: the judge's streams are drawn from them. */
  readonly seed: number
  readonly rollout: number
  /**
   * Whether a judge has called its model about this run: its verdict then carries the judge's own
   * noise, which replaying the run's steps does not hold.
   */
  readonly judged: boolean
  /**
   * One model call of the judge `judge` (its `call`-th on this run, from 0): the policy gets the
   * judge's own stream (seed, rollout, judge, call) and a view whose `seed` is that stream's
   * provider seed. A step with `model` goes through the cassette, keyed like a step by name, model,
   * request and stream; a live call waits for the account's rate limit, is refused once its cost
   * limit is reached, and is counted (tokens, USD) in the claim's cost, as a step's call is.
   */
  call<A extends Json>(
    judge: { readonly id: string; readonly call: number; readonly name: string },
    policy: Policy<A>,
    options: StepOptions<A>,
    signal: AbortSignal,
  ): Promise<A>
}

// Which run a trajectory was produced under: a private field the engine stamps on the trajectory
// (a base class whose constructor returns the object it is given lets a subclass add its private
// fields to any object). Invisible to keys, symbols, JSON, spreads, structuredClone, printing and
// Vitest's equality, so the trajectory keeps its schema's shape, and a copy (as before) has no
// context. Not a WeakMap: its set was the largest self time of a warm attribution's rollout, and
// its entries slowed every scavenge. Not a non-enumerable symbol property either: the
// `Object.defineProperty` that adds one took about 130 ns, the private field about 8.
class ReturnsItsArgument {
  constructor(target: object) {
    return target
  }
}

class EvaluationStamp extends ReturnsItsArgument {
  readonly #evaluation: EvaluationContext

  private constructor(target: object, evaluation: EvaluationContext) {
    super(target)
    this.#evaluation = evaluation
  }

  /** Gives `target` the context `evaluation` (once: a second stamp throws). */
  static stamp(target: object, evaluation: EvaluationContext): void {
    new EvaluationStamp(target, evaluation)
  }

  /** The context stamped on `target`, if any. */
  static of(target: object): EvaluationContext | undefined {
    return #evaluation in target ? (target as EvaluationStamp).#evaluation : undefined
  }
}

/** Registers the context predicates of `trajectory` get (the engine calls it once per rollout). */
export function registerEvaluation(
  trajectory: Trajectory,
  seed: number,
  rollout: number,
  budget: Budget,
  cassette: Cassette | undefined,
): void {
  EvaluationStamp.stamp(trajectory, new RunEvaluation(seed, rollout, budget, cassette))
}

/**
 * The evaluation context of a trajectory: the one its rollout registered, or for a trajectory the
 * engine did not produce (read from a file, built by hand), its seed and rollout's streams with no
 * cassette and a fresh account.
 */
export function evaluationOf(trajectory: Trajectory<unknown, unknown>): EvaluationContext {
  return EvaluationStamp.of(trajectory) ?? standaloneEvaluation(trajectory, new Budget(), undefined)
}

/** A standalone context for a trajectory: its streams, a cassette if given, and `budget`'s account. */
export function standaloneEvaluation(
  trajectory: Trajectory<unknown, unknown>,
  budget: Budget,
  cassette: Cassette | undefined,
): EvaluationContext {
  return new RunEvaluation(trajectory.seed, trajectory.rollout, budget, cassette)
}

/** Whether a judge has called its model about `trajectory` (see {@link EvaluationContext.judged}). */
export function wasJudged(trajectory: Trajectory<unknown, unknown>): boolean {
  return EvaluationStamp.of(trajectory)?.judged === true
}

class RunEvaluation implements EvaluationContext {
  judged = false

  constructor(
    readonly seed: number,
    readonly rollout: number,
    private readonly budget: Budget,
    private readonly cassette: Cassette | undefined,
  ) {}

  async call<A extends Json>(
    judge: { readonly id: string; readonly call: number; readonly name: string },
    policy: Policy<A>,
    options: StepOptions<A>,
    signal: AbortSignal,
  ): Promise<A> {
    this.judged = true
    const { seed, rollout, cassette } = this
    // The judge's name, its call number as the index, its request, its stream's seed and its signal.
    const view: StepView = {
      name: judge.name,
      index: judge.call,
      context: options.context,
      seed: judgeProviderSeed(seed, rollout, judge.id, judge.call),
      signal,
    }
    const cacheable = cassette !== undefined && (options.cache ?? options.model !== undefined)
    const key: StepCallKey = {
      name: judge.name,
      model: options.model,
      request: options.context,
      stream: { seed, rollout, step: judge.call, judge: judge.id },
    }
    // A call another rollout (an attribution arm on the same stream) is making is waited for, then
    // taken from the cassette: one key, one call, as for steps.
    let missKey: string | undefined
    if (cacheable) {
      for (;;) {
        const lookup = cassette.findStep(key)
        if (lookup.kind === 'hit') {
          const saved = options.costUsd?.(lookup.entry.action as A)
          accountOf(this.budget).chargeModelCall({
            kind: 'cassette-hit',
            savedUsd: saved !== undefined && saved >= 0 && saved < Infinity ? saved : undefined,
            reused: lookup.reused,
          })
          return copyJson(lookup.entry.action, `The stored answer of ${judge.name}`) as A
        }
        if (lookup.kind === 'miss') {
          missKey = lookup.key
          break
        }
        await lookup.settled
      }
    }
    try {
      if (accountOf(this.budget).costExhausted) {
        throw new BudgetExceededError(`The cost budget is spent (${this.budget.describe()}).`, undefined)
      }
      const limit = options.model === undefined ? undefined : accountOf(this.budget).rateLimit
      if (limit !== undefined) await limit.acquire(signal)
      const returned = await policy(judgeStream(seed, rollout, judge.id, judge.call), view)
      const action = copyJson(returned, `The answer of ${judge.name}`) as A
      const meta =
        options.meta === undefined
          ? undefined
          : (copyJson(options.meta(action), `The meta of ${judge.name}`) as JsonObject)
      if (limit !== undefined)
        await limit.recordTokens(tokens(meta?.['inputTokens']) + tokens(meta?.['outputTokens']))
      const usd = options.costUsd?.(action)
      if (usd !== undefined) {
        if (!(usd >= 0 && usd < Infinity)) {
          throw new CausalReplayError(
            `The costUsd of ${judge.name} must be a non-negative number, got ${usd}.`,
          )
        }
        accountOf(this.budget).chargeCost(usd)
      }
      if (options.model !== undefined) {
        accountOf(this.budget).chargeModelCall({
          kind: 'live',
          inputTokens: tokens(meta?.['inputTokens']),
          outputTokens: tokens(meta?.['outputTokens']),
          usd,
        })
      }
      if (missKey !== undefined) {
        // The cassette calls them on the joined, redacted action: the policy's shape, secrets replaced.
        cassette?.recordStep(missKey, key, copyJson(action, judge.name), meta, entryRebuild(options))
      }
      return action
    } catch (error) {
      if (missKey !== undefined) cassette?.release(missKey)
      throw error
    }
  }
}

function tokens(value: Json | undefined): number {
  return typeof value === 'number' && value >= 0 && Number.isFinite(value) ? value : 0
}
