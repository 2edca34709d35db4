import type { Arm, ArmRequest, ArmRun, ReplayArms } from './replay-arms.js'

/** An arm of a look, with the most pairs it may run. */
export interface LookArm {
  readonly arm: Arm
  readonly cap: number
}

/**
 * Keeps the pool busy across the looks of paired arms. A look waits for every rollout of its batch,
 * so while its slowest replays run, the next looks' rollouts (every running arm's next batch, and the
 * reference arm's extension, as they would be requested if no arm stopped) run tentatively
 * (`ReplayArms.submit`). At the next look the engine asks for exactly the batch it would have asked
 * for without them; when the first look queued ahead predicted it (the same arms and indices, in the
 * same order), its runs of those arms are confirmed and the rest withdrawn, and otherwise everything
 * queued ahead is withdrawn and the batch submitted afresh. So every look decides on the same
 * rollouts as one submitted then, at any concurrency and in any finishing order, and the budget is
 * charged for the same rollouts in the same order (the pool queues confirmed runs before tentative
 * ones, and a tentative rollout only holds its charge while it may still be needed).
 */
export class LookPipeline {
  /** Looks queued ahead of the one in flight, in order, each its runs in request order. */
  private readonly ahead: ArmRun[][] = []

  constructor(
    private readonly replay: ReplayArms,
    private readonly reference: Arm,
    private readonly batch: number,
    private readonly concurrency: number,
    /** Rounds of `concurrency` rollouts queued ahead (the `runAhead` option; see its comment for the measured trade). */
    private readonly rounds: number,
  ) {}

  /**
   * Submits the batch of the next look (the reference arm first, if it is in it) and returns when
   * it has settled: `budgetSpent` when the budget refused some of it.
   */
  async look(requests: readonly ArmRequest[]): Promise<{ budgetSpent: boolean }> {
    const runs = this.take(requests)
    const settled = await Promise.allSettled(runs.map((run) => run.settled()))
    let budgetSpent = false
    // The first failure in request order, as one run over every request would throw it.
    for (const outcome of settled) {
      if (outcome.status === 'rejected') throw outcome.reason
      if (outcome.value.budgetSpent) budgetSpent = true
    }
    return { budgetSpent }
  }

  /**
   * Queues the looks after the one just submitted, for `running` (in request order) as if none of
   * them stopped, until `rounds` rounds of `concurrency` rollouts are queued ahead.
   */
  queueAhead(running: readonly LookArm[]): void {
    const limit = this.rounds * this.concurrency
    let queued = this.ahead.reduce((sum, look) => sum + rolloutsOf(look), 0)
    const frontier = new Map<Arm, number>()
    const reached = (arm: Arm) => frontier.get(arm) ?? this.lastQueued(arm) ?? arm.requested
    while (queued < limit) {
      const requests: ArmRequest[] = []
      for (const { arm, cap } of running) {
        const from = reached(arm)
        const to = Math.min(cap, from + this.batch)
        if (from < to) requests.push({ arm, from, to })
      }
      if (requests.length === 0) return
      const referenceFrom = reached(this.reference)
      const referenceTo = Math.max(...requests.map((request) => request.to))
      if (referenceFrom < referenceTo)
        requests.unshift({ arm: this.reference, from: referenceFrom, to: referenceTo })
      const look = requests.map((request) => this.replay.submit(request, true))
      this.ahead.push(look)
      for (const { arm, to } of requests) frontier.set(arm, to)
      queued += rolloutsOf(look)
    }
  }

  /** Withdraws everything queued ahead: the arms have stopped, or the run is ending. */
  withdrawAll(): void {
    for (const look of this.ahead) for (const run of look) run.withdraw()
    this.ahead.length = 0
  }

  /**
   * The runs of the look `requests`: the first look queued ahead when it predicted them, its other
   * runs withdrawn (and every later run of an arm not in `requests`, which has stopped); otherwise
   * fresh runs, after withdrawing everything queued ahead. Withdrawals come before confirmations, so
   * a charge the queue waits for is tried only once what it waits behind is settled.
   */
  private take(requests: readonly ArmRequest[]): ArmRun[] {
    const next = this.ahead.shift()
    const kept = next === undefined ? undefined : matching(next, requests)
    if (next === undefined || kept === undefined) {
      if (next !== undefined) for (const run of next) run.withdraw()
      this.withdrawAll()
      return requests.map((request) => this.replay.submit(request, false))
    }
    const arms = new Set(requests.map((request) => request.arm))
    for (const run of next) if (!kept.includes(run)) run.withdraw()
    this.ahead.forEach((look, at) => {
      const stopped = look.filter((run) => run.request.arm !== this.reference && !arms.has(run.request.arm))
      for (const run of stopped) run.withdraw()
      if (stopped.length > 0) this.ahead[at] = look.filter((run) => !stopped.includes(run))
    })
    for (const run of kept) run.confirm()
    return kept
  }

  /** Where the runs queued ahead of `arm` end, or undefined when none is. */
  private lastQueued(arm: Arm): number | undefined {
    for (let look = this.ahead.length - 1; look >= 0; look--) {
      const run = this.ahead[look]?.find((queued) => queued.request.arm === arm)
      if (run !== undefined) return run.request.to
    }
    return undefined
  }
}

/** The runs of `look` that are exactly `requests`, in their order; undefined if one is missing. */
function matching(look: readonly ArmRun[], requests: readonly ArmRequest[]): ArmRun[] | undefined {
  const kept: ArmRun[] = []
  for (const request of requests) {
    const run = look.find(
      ({ request: queued }) =>
        queued.arm === request.arm && queued.from === request.from && queued.to === request.to,
    )
    if (run === undefined) return undefined
    kept.push(run)
  }
  return kept
}

function rolloutsOf(look: readonly ArmRun[]): number {
  return look.reduce((sum, run) => sum + run.request.to - run.request.from, 0)
}
