import { isDatasetScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { caseOfRollout } from '../dataset/case-order.js'
import { RolloutAbortedError } from '../errors.js'
import { copyJson } from '../json.js'
import type { Trajectory } from '../trajectory/schema.js'
import { registerEvaluation } from './evaluation.js'
import { TrajectoryRecorder, type RolloutSettings } from './recorder.js'
import { RolloutContext } from './rollout-context.js'
import { MAX_TIMER_MS, unwatch, watch } from './watchdog.js'

/** A finished rollout. `stoppedByBudget` rollouts are not outcomes and are left out of every rate. */
export interface RolloutResult {
  trajectory: Trajectory
  stoppedByBudget: boolean
}

/**
 * The recorder of one rollout. Over a dataset, the rollout runs its case (chosen from the seed and
 * the rollout's index alone, see `caseOfRollout`) as a scenario of that case's input, and its
 * trajectory names the case.
 */
function rolloutRecorder(
  scenario: Scenario<unknown, unknown>,
  settings: RolloutSettings,
): TrajectoryRecorder {
  if (!isDatasetScenario(scenario)) return new TrajectoryRecorder(scenario, settings)
  const { dataset } = scenario
  const picked = caseOfRollout(dataset, settings.seed, settings.rollout)
  return new TrajectoryRecorder({ kind: 'scenario', agent: scenario.agent, input: picked.input }, settings, {
    dataset: dataset.name,
    id: picked.id,
  })
}

/**
 * Runs one rollout of `scenario` under `settings.plan`. Never throws for the agent's sake: an agent
 * that throws, times out, loops or is aborted gives a trajectory with `error` set.
 *
 * This is the rollout's lifecycle (cancellation, timeout, the agent's run, its output); each
 * `ctx.step` goes through the step pipeline (`step-pipeline.ts`), each `ctx.tool` through
 * `tool-call.ts`, and both record into the {@link TrajectoryRecorder}.
 */
export function executeRollout(
  scenario: Scenario<unknown, unknown>,
  settings: RolloutSettings,
): Promise<RolloutResult> {
  const recorder = rolloutRecorder(scenario, settings)
  const outer = settings.signal
  const cancel = () => recorder.stop(new RolloutAbortedError('The rollout was cancelled.'))
  // Set when a cancellation stops the rollout midway (not one that came before it began): what it
  // spent is counted as aborted in flight.
  let cancelledWhileRunning = false
  const onOuterAbort =
    outer === undefined
      ? undefined
      : () => {
          cancelledWhileRunning = !recorder.finished && recorder.stopReason === undefined
          cancel()
        }
  if (outer !== undefined && onOuterAbort !== undefined) {
    if (outer.aborted) cancel()
    else outer.addEventListener('abort', onOuterAbort, { once: true })
  }
  // A limit past what a timer can hold is left to the deadline checks alone.
  const timed = settings.timeoutMs <= MAX_TIMER_MS
  if (timed) watch(recorder)

  /** Ends the rollout, whatever ended its run, and assembles its trajectory. */
  const end = (): RolloutResult => {
    // What a cancelled rollout cost, read before `end` lets its calls in flight settle.
    if (cancelledWhileRunning) recorder.chargeCancelled()
    if (timed) unwatch(recorder)
    if (onOuterAbort !== undefined) outer?.removeEventListener('abort', onOuterAbort)
    // Stop any work the agent left running (a hung tool call) and make its later ctx calls throw.
    recorder.end()
    const trajectory = recorder.finish()
    // What a judge predicate reaches of this run: its streams, its cassette, its claim's account.
    const { seed, rollout, execution } = settings
    registerEvaluation(trajectory, seed, rollout, execution.budget, recorder.cassette)
    return { trajectory, stoppedByBudget: recorder.stoppedByBudget }
  }
  const failed = (error: unknown): RolloutResult => {
    recorder.fail(error)
    return end()
  }

  // Cancelled before it began: the agent does not run at all.
  if (recorder.stopReason !== undefined) return Promise.resolve(failed(recorder.stopReason))
  // Not an async function: its frame was the largest allocation of a warm attribution's rollout.
  // The agent may never look at its signal (a hang on a promise that never settles), so a stop
  // rejects this promise whatever the agent does. One promise whose reject the recorder keeps,
  // rather than a race against a never-settling "stopped" promise: the race cost three promises
  // and four reactions per rollout, a measurable share of a cold attribution's garbage.
  const run = new Promise<unknown>((resolve, reject) => {
    recorder.rejectOnStop(reject)
    // Each rollout gets its own copy of the input: an agent that mutates it must not change the
    // input of later rollouts (or the recorded input). A synchronous throw (in the copy or in
    // `run`) rejects this promise, as the Promise constructor catches it.
    const context = new RolloutContext(recorder)
    const ran = recorder.scenario.agent.run(copyJson(recorder.scenario.input, 'The scenario input'), context)
    Promise.resolve(ran).then(resolve, reject)
  })
  return run.then((output) => {
    try {
      recorder.throwIfStopped()
      if (output !== undefined)
        recorder.recordOutput(copyJson(output, `The output of agent "${scenario.agent.name}"`))
    } catch (error) {
      return failed(error)
    }
    return end()
  }, failed)
}
