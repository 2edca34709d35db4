import { Budget } from '../rollout/budget.js'

/**
 * A budget that spends from `parent` and may spend at most `maxRollouts` of it. It charges the
 * parent first, so the gate's shared limits still hold, and refuses past its own cap, so one part
 * of a diagnosis (context attribution) cannot spend more than it was allotted however much the
 * parent has left. Cost is charged to both and limited by the parent's cost limit.
 */
export class CappedBudget extends Budget {
  constructor(
    private readonly parent: Budget,
    maxRollouts: number,
  ) {
    super({ maxRollouts: Math.max(0, Math.floor(maxRollouts)) })
  }

  override get remainingRollouts(): number {
    return Math.min(super.remainingRollouts, this.parent.remainingRollouts)
  }

  override tryChargeRollouts(count = 1): boolean {
    // Checked against the cap before the parent is charged: a refused charge must cost nothing.
    if (this.spentRollouts + count > this.maxRollouts) return false
    if (!this.parent.tryChargeRollouts(count)) return false
    return super.tryChargeRollouts(count)
  }

  override chargeCost(usd: number): void {
    this.parent.chargeCost(usd)
    super.chargeCost(usd)
  }

  override get costExhausted(): boolean {
    return this.parent.costExhausted || super.costExhausted
  }
}
