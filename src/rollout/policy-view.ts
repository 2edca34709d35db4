import type { StepView } from '../agent/types.js'
import type { Json } from '../json.js'
import { providerSeed } from '../random/streams.js'
import type { TrajectoryRecorder } from './recorder.js'

/**
 * What a policy sees. A class rather than a literal because one is made for every step; `seed` and
 * `signal` are prototype getters, so a policy that reads neither (a synthetic one) does not pay for
 * the provider seed's hash or the rollout's AbortController.
 */
export class PolicyView implements StepView {
  // A native private field: invisible to spreads and to printing the view.
  readonly #recorder: TrajectoryRecorder

  constructor(
    readonly name: string,
    readonly index: number,
    readonly context: Json | undefined,
    recorder: TrajectoryRecorder,
  ) {
    this.#recorder = recorder
  }

  get seed(): number {
    const { seed, rollout } = this.#recorder.settings
    return providerSeed(seed, rollout, this.index)
  }

  get signal(): AbortSignal {
    return this.#recorder.signal
  }
}
