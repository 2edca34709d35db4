import type { Interval } from '../../stats/index.js'
import type { ReplayErrors } from '../schema.js'

/** What a Shapley estimator (exact or permutation) hands back to `shapley`. */
export interface ShapleyEstimate {
  /** One interval per step, or null when the work done cannot estimate them (budget spent too early). */
  values: Interval[] | null
  /** v(N) − v(∅) with its interval. */
  efficiencySum: Interval
  /** Permutations used (counting both members of antithetic pairs); 0 for exact. */
  permutations: number
  /** Coalition evaluations that ran. */
  evaluations: number
  rolloutsUsed: number
  /** The replays that errored, over every coalition evaluation; undefined when none did. */
  errors?: ReplayErrors | undefined
  /** Share of held steps that matched the recording, over every rollout. */
  actionMatchRate: number
  truncated: boolean
  /** Reader's description of the value intervals and of the efficiency-sum interval. */
  methods: { value: string; efficiencySum: string }
}
