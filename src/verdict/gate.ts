import type { Predicate } from '../trajectory/queries.js'
import type { Trajectory } from '../trajectory/schema.js'
import type { Verdict } from './schema.js'

/** What a gate hands on besides its verdict: the run attribution explains, and the scorer. */
export interface GateRun<V extends Verdict = Verdict> {
  verdict: V
  /** The first rollout against the claim (by index), or the first errored one when errors failed the gate. */
  failing: Trajectory | null
  /**
   * A failing per-case claim's further cases shown to violate it: each one's first failing run,
   * worst first, attributed after `failing` while the claim's budget lasts. Absent otherwise.
   */
  furtherFailing?: readonly Trajectory[]
  /** Scores a trajectory the way the gate did: true when it goes against the claim. */
  isBad: (trajectory: Trajectory) => Promise<boolean>
}

/** Who is asserting what: the parts of a verdict that come from the claim, not from sampling. */
export interface GateSubject {
  agent: string
  predicate: Predicate
  /** How the predicate reads in a sentence. */
  label: string
  seedSource: Verdict['seedSource']
}
