import { describe, test, type TestContext } from 'vitest'
import type { Dataset } from '../dataset/schema.js'
import { rateIntervalText } from '../text/numbers.js'
import type { DatasetCaseRow, DatasetReport } from '../verdict/schema.js'
import { lastDatasetReport } from './dataset-reports.js'

/** What the body of {@link describeDataset} declares its claims with. */
export interface DatasetClaims {
  /**
   * A claim over the dataset, as a test (`fn` makes one rate assertion on `agent.over(dataset)`),
   * followed by one test row per case that reports that claim's runs of the case: no case runs
   * again. On a per-case claim (`per: 'case'`) a row passes when its case was shown to satisfy the
   * claim, fails when it was shown to violate it and is skipped, with its tallies, while undecided;
   * on a claim about the mean a row passes with its tallies as an annotation (the mean is decided
   * once, by the claim's test). `timeout` is the claim test's.
   */
  claim(name: string, fn: (context: TestContext) => Promise<void>, timeout?: number): void
}

/**
 * `describeDataset(dataset, (dataset) => { dataset.claim(name, fn) })` from
 * `vitest-causal-replay/matchers`: a suite named after the dataset in which each claim is one test,
 * its verdict and its one set of rollouts, and its cases are test rows under it (`<claim> > <case
 * id>`), so a report or a `-t` filter sees each case. The rows run after their claim, in order (the
 * suite is sequential), and read the per-case table of the last dataset verdict the claim's test
 * reached; a row whose case ran on another shard (`CAUSAL_REPLAY_SHARD`) is skipped.
 */
export function describeDataset<I>(dataset: Dataset<I>, body: (claims: DatasetClaims) => void): void {
  describe.sequential(`dataset "${dataset.name}"`, () => {
    body({
      claim(name, fn, timeout) {
        let report: DatasetReport | undefined
        let reached = false
        test(
          name,
          async (context) => {
            try {
              await fn(context)
            } finally {
              reached = true
              report = lastDatasetReport(context.task)
            }
          },
          timeout,
        )
        describe(name, () => {
          test.for(dataset.cases.map((each) => each.id))('%s', async (id, context) => {
            if (!reached) return context.skip(`the claim "${name}" did not run`)
            if (report === undefined || report.name !== dataset.name) {
              return context.skip(`the claim "${name}" reached no verdict over dataset "${dataset.name}"`)
            }
            const row = report.table.find((each) => each.id === id)
            if (row === undefined) return context.skip(`case "${id}" did not run here (another shard's)`)
            const text = caseRowText(row)
            if (row.decision === 'violates') throw new Error(text)
            if (row.decision === 'undecided') return context.skip(text)
            await context.annotate(text)
          })
        })
      },
    })
  })
}

/** A case's tallies as its row states them: "4 of 4 runs went against the claim (…CI…); violates it". */
function caseRowText(row: DatasetCaseRow): string {
  const completed = row.runs - row.errors
  const interval = row.interval === null ? '' : ` (${rateIntervalText(row.interval)})`
  const errors = row.errors === 0 ? '' : `, ${row.errors} ended in an error`
  const decision =
    row.decision === undefined
      ? ''
      : row.decision === 'violates'
        ? '; shown to violate the claim'
        : row.decision === 'satisfies'
          ? '; shown to satisfy the claim'
          : '; undecided'
  return `case "${row.id}": ${row.failures} of ${completed} runs went against the claim${interval}${errors}${decision}`
}
