import type { AgentContext, RolloutInfo } from '../agent/types.js'
import type { TrajectoryRecorder } from './recorder.js'
import { runStep } from './step-pipeline.js'
import { runTool } from './tool-call.js'

/**
 * The agent's `ctx`. A class rather than an object literal: the literal's `signal` getter was
 * defined by a runtime call on every rollout, and with the eagerly frozen `rollout` object it made
 * the recorder's constructor the second-largest self time of a warm contrastive profile.
 * `step` and `tool` stay own arrow functions, so an agent may pass them around detached.
 */
export class RolloutContext implements AgentContext {
  readonly step: AgentContext['step']
  readonly tool: AgentContext['tool']
  readonly #recorder: TrajectoryRecorder
  #rollout: RolloutInfo | undefined

  constructor(recorder: TrajectoryRecorder) {
    this.#recorder = recorder
    this.step = (name, policy, options) => runStep(recorder, name, policy, options)
    this.tool = (name, args, impl, options) => runTool(recorder, name, args, impl, options)
  }

  /** Made on first read, since the AbortController it creates is only for agents that use it. */
  get signal(): AbortSignal {
    return this.#recorder.signal
  }

  /** Made on first read: few agents look at it. */
  get rollout(): RolloutInfo {
    const { seed, rollout } = this.#recorder.settings
    return (this.#rollout ??= Object.freeze({ seed, index: rollout }))
  }
}
