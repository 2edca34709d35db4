/** Arithmetic mean of a non-empty sample. */
export function mean(values: readonly number[]): number {
  let sum = 0
  for (const value of values) sum += value
  return sum / values.length
}

/**
 * The standard error of the mean, s/√n, with the sample standard deviation s (n − 1 in its
 * denominator), about `point` (the sample's mean). Needs at least two values.
 */
export function standardErrorOfMean(values: readonly number[], point: number): number {
  let squares = 0
  for (const value of values) squares += (value - point) ** 2
  return Math.sqrt(squares / (values.length - 1) / values.length)
}

/** Throws a RangeError naming `fn` unless the sample is non-empty and every value is finite. */
export function assertSample(fn: string, values: readonly number[]): void {
  if (values.length === 0) throw new RangeError(`${fn}: the sample is empty`)
  const bad = values.findIndex((value) => !Number.isFinite(value))
  if (bad >= 0) throw new RangeError(`${fn}: values[${bad}] is ${values[bad]}, not a finite number`)
}
