import type { StepOptions } from '../agent/types.js'
import type { Cassette, CassetteLookup } from '../cassette/cassette.js'
import type { StepCallKey } from '../cassette/key.js'
import type { StepEntry } from '../cassette/schema.js'
import { copyJson, isJsonPrimitive, type Json } from '../json.js'
import type { TrajectoryRecorder } from './recorder.js'
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
 * value per stage handed along: a step allocates it and the trajectory's step, little else. A plain
 * object made by one literal (see `plan`), not a class: on a cold call a class instance costs a
 * constructor and a field initializer that defines every field before the constructor sets it.
 */
export interface PendingStep<A extends Json> extends StepCall<A> {
  readonly options: StepOptions<A>
  /** The plan stage's answer: a given action, or a policy to call on what it sees. */
  resolution: StepResolution<A>
  /** The cassette stage's hit: the stored action and meta answer the step, no policy is called. */
  hit: CassetteHit | undefined
  /** The cassette stage's miss: the call is recorded in the cassette once its policy returns. */
  miss: CassetteMiss | undefined
  /** The model whose call slot the step holds, from the slot's grant until its call settles. */
  slot: string | undefined
  /** A live model call of the step is in flight (counted by the recorder until it settles). */
  calling: boolean
  /** The policy's answer, kept while the rate limit counts its tokens. */
  returned: A | undefined
  /** What a stage that returned {@link WAIT} waits for, and the stage that takes its value. */
  waitingOn: unknown
  resumeAt: Stage<A> | undefined
}

/**
 * One stage of the step pipeline: reads and fills in the pending step, and returns the action to
 * hand to the agent, goes on to the next stage by calling it, or returns {@link WAIT} having named
 * what it waits for (`waitFor` in `stage-loop.ts`). `input` is the value waited for, if any.
 */
export type Stage<A extends Json> = (
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  input: unknown,
) => A | typeof WAIT

/** A stage's answer when its step must wait: never an action, which is JSON. */
export const WAIT: unique symbol = Symbol('wait')

/**
 * What a pending step's `resolution` holds from its creation until the plan stage resolves it,
 * a few lines later; never read. A value of the field's type keeps every pending step one shape.
 */
export const UNRESOLVED: StepResolution<never> = Object.freeze({
  kind: 'given',
  source: 'held',
  action: null,
  diverged: false,
  matched: false,
})

/**
 * A copy of one of a step's values (see `copyJson`), whose error names it as `what` of the step.
 * Primitives need no copy and no message: most actions are primitives, and building the message
 * for each was a tenth of the bytes a step allocated.
 */
export function copyStepValue(
  pending: Pick<PendingStep<Json>, 'index' | 'name'>,
  value: unknown,
  what: string,
): Json {
  return isJsonPrimitive(value)
    ? value
    : copyJson(value, `The ${what} of step ${pending.index} "${pending.name}"`)
}
