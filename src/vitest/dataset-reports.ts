import type { DatasetReport } from '../verdict/schema.js'

// The per-case table of the last dataset verdict each test reached, by its task: the case rows of
// `describeDataset` read it after their claim's test, so the rows report the one gate's runs.
const lastReports = new WeakMap<object, DatasetReport>()

/** Keeps `report` as the last dataset verdict of the test `task` reached. */
export function rememberDatasetReport(task: object, report: DatasetReport): void {
  lastReports.set(task, report)
}

/** The last dataset verdict the test `task` reached, or undefined when it reached none. */
export function lastDatasetReport(task: object): DatasetReport | undefined {
  return lastReports.get(task)
}
