import type { Policy } from '../agent/types.js'
import { ReplayDivergenceError } from '../errors.js'
import { copyJson, type Json } from '../json.js'
import type { StepSource } from '../trajectory/schema.js'
import type { StepDirective } from './plan.js'

/** A call of `ctx.step` as the plan sees it, before anything runs. */
export interface StepCall<A extends Json> {
  index: number
  name: string
  /** The agent's own policy. */
  policy: Policy<A>
  /** The context value the agent passed: what its own policy decides from. */
  agentContext: Json | undefined
  /** The recorded snapshot of `agentContext` (undefined when the agent passed none). */
  context: Json | undefined
  /** The digest of `context`, or null when there is none. */
  contextDigest: string | null
}

/**
 * What a step does under its directive: return a `given` action (held or forced), or `call` a
 * policy on what it `sees`. Both kinds carry the same two replay flags so the recorder reads them
 * without a branch.
 */
export type StepResolution<A extends Json> =
  | {
      kind: 'given'
      source: Extract<StepSource, 'held' | 'forced'>
      /** Shared by every rollout of the replay: whoever keeps or hands it out copies it. */
      action: Json
      /** A held step whose name or context digest differs from the recording. */
      diverged: boolean
      /** A held step that matches the recording. */
      matched: boolean
    }
  | {
      kind: 'call'
      source: Extract<StepSource, 'policy' | 'swapped' | 'edited'>
      policy: Policy<A>
      /** The context the policy decides from. */
      sees: Json | undefined
      /** A held step whose name or context digest differs from the recording. */
      diverged: boolean
      /** A held step that matches the recording. */
      matched: boolean
    }

/**
 * Resolves `call` under `directive`: hold answers from the recording, force gives the plan's action,
 * edit lets the policy decide from an edited copy of the context, sample calls the agent's policy or
 * the one swapped in. Throws `ReplayDivergenceError` when a held step diverges and `onDivergence` is
 * `error`; with `count` the divergence is only flagged. Runs the plan's context edit, if any.
 */
export function resolveStep<A extends Json>(
  directive: StepDirective,
  call: StepCall<A>,
  onDivergence: 'count' | 'error',
): StepResolution<A> {
  switch (directive.kind) {
    case 'hold': {
      const { recorded } = directive
      const { index, name, contextDigest } = call
      const diverged = recorded.name !== name || recorded.contextDigest !== contextDigest
      if (diverged && onDivergence === 'error') {
        throw new ReplayDivergenceError(
          `Held step ${index} diverged from the recording: recorded "${recorded.name}" (context ${recorded.contextDigest}), replay reached "${name}" (context ${contextDigest}).`,
        )
      }
      // A step of another name is another decision: the recording says nothing about it.
      return recorded.name === name
        ? { kind: 'given', source: 'held', action: recorded.action, diverged, matched: !diverged }
        : {
            kind: 'call',
            source: 'policy',
            policy: call.policy,
            sees: call.agentContext,
            diverged,
            matched: false,
          }
    }
    case 'force':
      return { kind: 'given', source: 'forced', action: directive.action, diverged: false, matched: false }
    case 'edit': {
      const { context } = call
      // The edit gets a copy, so an in-place edit cannot reach the agent's own data or the record.
      const sees = copyJson(
        directive.edit(context === undefined ? undefined : copyJson(context, 'The context')),
        `editContext(${call.index})'s result`,
      )
      return { kind: 'call', source: 'edited', policy: call.policy, sees, diverged: false, matched: false }
    }
    default:
      return directive.policy === undefined
        ? {
            kind: 'call',
            source: 'policy',
            policy: call.policy,
            sees: call.agentContext,
            diverged: false,
            matched: false,
          }
        : {
            kind: 'call',
            source: 'swapped',
            policy: directive.policy as Policy<A>,
            sees: call.agentContext,
            diverged: false,
            matched: false,
          }
  }
}
