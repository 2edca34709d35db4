/** A rollout the watchdog times out. */
export interface Watched {
  /** When it times out (performance.now() time). */
  readonly deadline: number
  /** Stops it with a timeout error. */
  timeOut(): void
}

// One timer for every rollout in flight, armed for the earliest deadline, instead of a setTimeout
// and clearTimeout per rollout: on a cold Shapley call of a fast agent (3,840 rollouts) the
// per-rollout timers were about 8% of the profile. Rollouts still stop at their deadline. Between
// runs the timer is unref'd rather than cleared, so that it neither keeps the process alive nor
// has to be made again for the next rollout; a stale timer only fires early and re-arms.
const watched = new Set<Watched>()
let watchdog: ReturnType<typeof setTimeout> | undefined
let watchdogAt = Infinity

/**
 * The longest delay setTimeout keeps: it fires at once for longer ones (about 24.8 days). Such a
 * limit is no limit in practice, so a rollout with one is left to the deadline checks alone.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** Times `rollout` out at its deadline unless {@link unwatch} comes first. */
export function watch(rollout: Watched): void {
  watched.add(rollout)
  if (watchdog === undefined || rollout.deadline < watchdogAt) armWatchdog(rollout.deadline)
  else if (watched.size === 1) watchdog.ref()
}

/** Stops watching a rollout that ended. */
export function unwatch(rollout: Watched): void {
  watched.delete(rollout)
  if (watched.size === 0) watchdog?.unref()
}

function armWatchdog(at: number): void {
  if (watchdog !== undefined) clearTimeout(watchdog)
  watchdogAt = at
  watchdog = setTimeout(checkDeadlines, Math.max(0, at - performance.now()))
}

/** Times out every rollout past its deadline, and re-arms for the earliest one left. */
function checkDeadlines(): void {
  watchdog = undefined
  watchdogAt = Infinity
  const now = performance.now()
  let next = Infinity
  for (const rollout of watched) {
    if (rollout.deadline <= now) {
      watched.delete(rollout)
      rollout.timeOut()
    } else if (rollout.deadline < next) {
      next = rollout.deadline
    }
  }
  if (next < Infinity) armWatchdog(next)
}
