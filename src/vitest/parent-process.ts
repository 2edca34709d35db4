import { CausalReplayError } from '../errors.js'

let parentGone: AbortSignal | undefined

/**
 * A signal that aborts once the process that started this one is gone, or undefined in a process
 * that has no parent to lose. In Vitest's `forks` and `vmForks` pools each test file runs in a
 * child process with an IPC channel to the main process; when the main process is killed
 * (`kill -9`, a cancelled CI job) the worker is not stopped: its test runs on, and its rollouts
 * keep calling the model, paid for, with nobody left to read the verdict. The channel closing
 * ('disconnect') is the notice. A `threads` worker has no channel, and ends with its process.
 */
export function parentGoneSignal(): AbortSignal | undefined {
  if (typeof process.send !== 'function') return undefined
  if (parentGone === undefined) {
    const controller = new AbortController()
    const abort = () =>
      controller.abort(
        new CausalReplayError(
          'The Vitest main process is gone (its IPC channel to this worker closed): rollouts stopped, since no one is left to report the verdict to.',
        ),
      )
    if (process.connected) process.once('disconnect', abort)
    else abort()
    parentGone = controller.signal
  }
  return parentGone
}
