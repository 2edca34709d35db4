import type { Dataset } from '../dataset/schema.js'
import { clopperPearson } from '../stats/clopper-pearson.js'
import type { RoundCounts } from '../stats/dataset-rate-test.js'
import type { Predicate } from '../trajectory/queries.js'
import type { Trajectory } from '../trajectory/schema.js'
import { OutcomeTally } from './sampling.js'
import type { DatasetCaseRow, DatasetReport } from './schema.js'

/** A case's standing on a per-case claim. */
export type CaseDecision = NonNullable<DatasetCaseRow['decision']>

/** One case's running account. */
export interface CaseCount {
  runs: number
  failures: number
  errors: number
  /** The case's first completed run against the claim (by index): what attribution explains. */
  firstFailure: Trajectory | null
}

/**
 * The running account of a gate over a dataset: the {@link OutcomeTally} of every run (the pooled
 * rate, errors, the first bad run), and beside it each case's runs and failures and each round's
 * counts, which the dataset test reads. Rollouts come in index order, so rollout r falls in round
 * ⌊r/N⌋ (see `caseOfRollout`) and the rounds fill one after another.
 */
export class DatasetTally extends OutcomeTally {
  /** Each round's predicate counts: every round but the last holds every case once. */
  readonly rounds: RoundCounts[] = []
  private readonly byCase = new Map<string, CaseCount>()

  constructor(
    readonly dataset: Dataset<unknown>,
    predicate: Predicate,
    predicateIsBad: boolean,
    label: string,
  ) {
    super(predicate, predicateIsBad, label)
    for (const { id } of dataset.cases) byCaseInit(this.byCase, id)
  }

  override async add(trajectory: Trajectory): Promise<void> {
    const badBefore = this.bad
    await super.add(trajectory)
    const id = trajectory.case?.id
    const count = id === undefined ? undefined : this.byCase.get(id)
    // A run of another scenario has no case of this dataset; the gate never feeds one.
    if (count === undefined) return
    count.runs++
    const outcome = this.outcomes[this.outcomes.length - 1]
    if (outcome === '-') {
      count.errors++
      return
    }
    if (this.bad > badBefore) {
      count.failures++
      count.firstFailure ??= trajectory
    }
    const round = Math.floor(trajectory.rollout / this.dataset.cases.length)
    while (this.rounds.length <= round) this.rounds.push({ successes: 0, runs: 0 })
    const counts = this.rounds[round] as { successes: number; runs: number }
    counts.runs++
    if (outcome === '1') counts.successes++
  }

  /** Case `id`'s running account (runs, failures, errors, first failing run); undefined for an unknown id. */
  countOf(id: string): Readonly<CaseCount> | undefined {
    return this.byCase.get(id)
  }

  /**
   * The case whose runs went against the claim most often (the highest share of failures; more
   * failures, then the earlier case, break ties), or undefined when no run did.
   */
  worstCase(): { id: string; firstFailure: Trajectory } | undefined {
    let worst: { id: string; count: CaseCount } | undefined
    for (const [id, count] of this.byCase) {
      if (count.firstFailure === null) continue
      if (worst === undefined || worse(count, worst.count)) worst = { id, count }
    }
    return worst === undefined || worst.count.firstFailure === null
      ? undefined
      : { id: worst.id, firstFailure: worst.count.firstFailure }
  }

  /**
   * The verdict's account of the dataset: each case's runs, failures, errors and exact interval, and
   * on a per-case claim each case's decision.
   */
  report(confidence: number, decisions?: ReadonlyMap<string, CaseDecision>): DatasetReport {
    const worst = this.worstCase()
    return {
      name: this.dataset.name,
      cases: this.dataset.cases.length,
      rounds: this.rounds.filter((round) => round.runs === this.dataset.cases.length).length,
      worst: worst?.id ?? null,
      table: this.dataset.cases.map(({ id }) => {
        const { runs, failures, errors } = this.byCase.get(id) as CaseCount
        const completed = runs - errors
        return {
          id,
          runs,
          failures,
          errors,
          interval: completed === 0 ? null : clopperPearson(failures, completed, confidence),
          ...(decisions === undefined ? {} : { decision: decisions.get(id) ?? 'undecided' }),
        }
      }),
      ...(decisions === undefined ? {} : { per: 'case' as const }),
    }
  }
}

function byCaseInit(byCase: Map<string, CaseCount>, id: string): void {
  byCase.set(id, { runs: 0, failures: 0, errors: 0, firstFailure: null })
}

/** Whether case `a` went against the claim more than case `b` (both with a failure). */
function worse(a: CaseCount, b: CaseCount): boolean {
  const shareA = a.failures / (a.runs - a.errors)
  const shareB = b.failures / (b.runs - b.errors)
  if (shareA !== shareB) return shareA > shareB
  return a.failures > b.failures
}
