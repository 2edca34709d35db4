/** What numbering needs of a running test: its file, its retry and repeat counts. */
export interface NumberedTest {
  file: object
  result?: { retryCount?: number; repeatCount?: number } | undefined
}

// Per test file: the last number taken, by kind and test name.
const lastInFile = new WeakMap<object, Map<string, number>>()
// Per test: the numbers it was given, by kind and name, and how many of them its current attempt used.
const givenToTest = new WeakMap<
  object,
  { attempt: string; used: Map<string, number>; given: Map<string, number[]> }
>()

/**
 * The number of a rate assertion of one kind, counted from 1 over the tests of one file that share
 * the full name `name`, as Vitest numbers snapshots: the assertions of a test `gate` are 1, 2, …,
 * and those of a second test `gate` in the same file go on from there, so the two never share a
 * baseline key (`gate 1`) or a report file. A test with a name of its own numbers its assertions
 * from 1. A new attempt of a test (a retry or repeat) is given its earlier attempt's numbers again,
 * in order, even when a test of the same name ran in between (`test.concurrent`).
 */
export function nextAssertion(test: NumberedTest | undefined, name: string, kind: string): number {
  // Outside a test (no task) there is nothing to count over.
  if (test === undefined) return 1
  let last = lastInFile.get(test.file)
  if (last === undefined) lastInFile.set(test.file, (last = new Map()))
  const attempt = attemptOf(test)
  let mine = givenToTest.get(test)
  if (mine === undefined) givenToTest.set(test, (mine = { attempt, used: new Map(), given: new Map() }))
  if (mine.attempt !== attempt) {
    mine.attempt = attempt
    mine.used.clear()
  }
  // The kind has no colon, so a test name that holds one cannot pose as another kind.
  const counter = `${kind}:${name}`
  const used = mine.used.get(counter) ?? 0
  mine.used.set(counter, used + 1)
  let given = mine.given.get(counter)
  if (given === undefined) mine.given.set(counter, (given = []))
  const earlier = given[used]
  if (earlier !== undefined) return earlier
  const next = (last.get(counter) ?? 0) + 1
  last.set(counter, next)
  given.push(next)
  return next
}

/** Which run of a test this is: its retry and repeat counts ("retry/repeat"). */
export function attemptOf(test: NumberedTest): string {
  return `${test.result?.retryCount ?? 0}/${test.result?.repeatCount ?? 0}`
}
