import type { Policy, StepOptions } from '../agent/types.js'
import type { Cassette, CassetteLookup } from '../cassette/cassette.js'
import type { StepCallKey } from '../cassette/key.js'
import type { StepEntry } from '../cassette/schema.js'
import { copyJson, isJsonPrimitive, type Json } from '../json.js'
import type { StepCall, StepResolution } from './resolve-step.js'

/** A cacheable step the cassette did not hold: recorded once its policy returns. */
export interface CassetteMiss {
  cassette: Cassette
  key: string
  call: StepCallKey
}

/** A cacheable step the cassette answered. */
export type CassetteHit = Extract<CassetteLookup<StepEntry>, { kind: 'hit' }>

/**
 * One call of `ctx.step` on its way through the step pipeline (plan → cassette → limit → policy →
 * record): what the agent asked, and what each stage found out. One record per step rather than a
 * value per stage handed along: a step allocates it and the trajectory's step, little else.
 */
export class PendingStep<A extends Json> implements StepCall<A> {
  /** The plan stage's answer: a given action, or a policy to call on what it sees. */
  resolution!: StepResolution<A>
  /** The cassette stage's hit: the stored action and meta answer the step, no policy is called. */
  hit: CassetteHit | undefined = undefined
  /** The cassette stage's miss: the call is recorded in the cassette once its policy returns. */
  miss: CassetteMiss | undefined = undefined

  constructor(
    readonly index: number,
    readonly name: string,
    readonly policy: Policy<A>,
    readonly options: StepOptions<A>,
    /** The context value the agent passed: what its own policy decides from. */
    readonly agentContext: Json | undefined,
    /** The recorded snapshot of `agentContext` (undefined when the agent passed none). */
    readonly context: Json | undefined,
    /** The digest of `context`, or null when there is none. */
    readonly contextDigest: string | null,
  ) {}

  /**
   * A copy of one of this step's values (see `copyJson`), whose error names it as `what` of the
   * step. Primitives need no copy and no message: most actions are primitives, and building the
   * message for each was a tenth of the bytes a step allocated.
   */
  copy(value: unknown, what: string): Json {
    return isJsonPrimitive(value)
      ? value
      : copyJson(value, `The ${what} of step ${this.index} "${this.name}"`)
  }
}
