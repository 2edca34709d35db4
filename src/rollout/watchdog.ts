/** A rollout the watchdog times out. */
export interface Watched {
  /** When it times out (performance.now() time). */
  readonly deadline: number
  /** Stops it with a timeout error. */
  timeOut(): void
  /** The watchdog's links: the rollouts watched before and after this one, while it is watched. */
  watchedBefore: Watched | undefined
  watchedAfter: Watched | undefined
  /** True from {@link watch} until it is timed out or {@link unwatch}ed. */
  isWatched: boolean
}

// One timer for every rollout in flight, armed for the earliest deadline, instead of a setTimeout
// and clearTimeout per rollout: on a cold Shapley call of a fast agent (3,840 rollouts) the
// per-rollout timers were about 8% of the profile. Rollouts still stop at their deadline. Between
// runs the timer is unref'd rather than cleared, so that it neither keeps the process alive nor
// has to be made again for the next rollout; a stale timer only fires early and re-arms.
//
// The rollouts in flight are a list linked through the rollouts themselves, in the order they were
// watched, rather than a Set: the Set's tables, rebuilt as rollouts came and went, were about 80
// bytes of garbage per rollout and its add and delete about 2% of a warm Shapley profile; linking
// allocates nothing. A rollout's links are cleared when it leaves, so that it holds no other alive.
let first: Watched | undefined
let last: Watched | undefined
let watchedCount = 0
let watchdog: ReturnType<typeof setTimeout> | undefined
let watchdogAt = Infinity

/**
 * The longest delay setTimeout keeps: it fires at once for longer ones (about 24.8 days). Such a
 * limit is no limit in practice, so a rollout with one is left to the deadline checks alone.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** Times `rollout` out at its deadline unless {@link unwatch} comes first. */
export function watch(rollout: Watched): void {
  rollout.isWatched = true
  rollout.watchedBefore = last
  rollout.watchedAfter = undefined
  if (last === undefined) first = rollout
  else last.watchedAfter = rollout
  last = rollout
  watchedCount++
  if (watchdog === undefined || rollout.deadline < watchdogAt) armWatchdog(rollout.deadline)
  else if (watchedCount === 1) watchdog.ref()
}

/** Stops watching a rollout that ended. */
export function unwatch(rollout: Watched): void {
  remove(rollout)
  if (watchedCount === 0) watchdog?.unref()
}

/** Unlinks a watched rollout, and clears its links so that it holds no other rollout alive. */
function remove(rollout: Watched): void {
  if (!rollout.isWatched) return
  const { watchedBefore: before, watchedAfter: after } = rollout
  if (before === undefined) first = after
  else before.watchedAfter = after
  if (after === undefined) last = before
  else after.watchedBefore = before
  rollout.watchedBefore = undefined
  rollout.watchedAfter = undefined
  rollout.isWatched = false
  watchedCount--
}

function armWatchdog(at: number): void {
  if (watchdog !== undefined) clearTimeout(watchdog)
  watchdogAt = at
  watchdog = setTimeout(checkDeadlines, Math.max(0, at - performance.now()))
}

/** Times out every rollout past its deadline, in the order they were watched, and re-arms for the earliest one left. */
function checkDeadlines(): void {
  watchdog = undefined
  watchdogAt = Infinity
  const now = performance.now()
  let next = Infinity
  // The last rollout visited that is still watched: the next one to visit follows it, which also
  // reaches a rollout watched while an earlier one was being timed out.
  let kept: Watched | undefined
  for (let rollout = first; rollout !== undefined; rollout = kept === undefined ? first : kept.watchedAfter) {
    if (rollout.deadline <= now) {
      remove(rollout)
      rollout.timeOut()
    } else {
      if (rollout.deadline < next) next = rollout.deadline
      kept = rollout
    }
  }
  if (next < Infinity) armWatchdog(next)
}
