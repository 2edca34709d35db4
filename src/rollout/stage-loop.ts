import type { Json } from '../json.js'
import { modelCallSlots } from './model-call-slots.js'
import { WAIT, type PendingStep, type Stage } from './pending-step.js'
import type { TrajectoryRecorder } from './recorder.js'

/**
 * Drives a reserved step through its stages, from `first`, and owns what every stage would
 * otherwise repeat: a failure anywhere, thrown or rejected, gives the step back ({@link giveUp})
 * exactly once and rejects the step's promise.
 *
 * A step that never waits runs its stages in one synchronous call and costs one resolved promise.
 * Only a step that waits makes the promise it settles later: no frame of an async function (a heap
 * object per step, large while the code is still interpreted) on the path most steps take.
 */
export function runStages<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  first: Stage<A>,
): Promise<A> {
  let next: A | typeof WAIT
  try {
    next = first(recorder, pending, undefined)
  } catch (error) {
    giveUp(recorder, pending, error)
    return Promise.reject(error)
  }
  if (next !== WAIT) return Promise.resolve(next)
  return new Promise<A>((resolve, reject) => {
    resumeWhenSettled(recorder, pending, resolve, reject)
  })
}

/** What a stage returns to wait for `on`, then go on with `resumeAt` on its value. */
export function waitFor<A extends Json>(
  pending: PendingStep<A>,
  on: unknown,
  resumeAt: Stage<A>,
): typeof WAIT {
  pending.waitingOn = on
  pending.resumeAt = resumeAt
  return WAIT
}

/**
 * Resumes the step when what it waits for settles. `Promise.resolve(x).then` takes the same
 * microtasks as `await x` (none more for a native promise, the thenable job for another), and the
 * stage after it runs in the same microtask as the value arrives: a stop that arrives between two
 * microtasks finds a step recorded exactly where the direct calls would have recorded it, and the
 * model call it made is counted once, as spent or as cut off.
 */
function resumeWhenSettled<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  resolve: (action: A) => void,
  reject: (error: unknown) => void,
): void {
  const on = pending.waitingOn
  const resumeAt = pending.resumeAt as Stage<A>
  pending.waitingOn = undefined
  pending.resumeAt = undefined
  Promise.resolve(on).then(
    (value: unknown) => {
      let next: A | typeof WAIT
      try {
        next = resumeAt(recorder, pending, value)
      } catch (error) {
        giveUp(recorder, pending, error)
        reject(error)
        return
      }
      if (next === WAIT) resumeWhenSettled(recorder, pending, resolve, reject)
      else resolve(next)
    },
    (error: unknown) => {
      giveUp(recorder, pending, error)
      reject(error)
    },
  )
}

/** Ends a step's live call: its model slot is free for the next call, and the call no longer in flight. */
export function endLiveCall<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): void {
  if (pending.slot !== undefined) {
    modelCallSlots.release(pending.slot)
    pending.slot = undefined
  }
  if (pending.calling) {
    pending.calling = false
    recorder.liveCallEnded()
  }
}

/**
 * A step that will not complete gives back what it holds: its model slot and live call, then its
 * index to the recorder and its key to the cassette.
 */
function giveUp<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>, error: unknown): void {
  endLiveCall(recorder, pending)
  recorder.abandon(pending.index, pending.name, error)
  const { miss } = pending
  miss?.cassette.release(miss.key)
}
