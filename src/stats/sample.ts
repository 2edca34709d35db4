/** Arithmetic mean of a non-empty sample. */
export function mean(values: readonly number[]): number {
  let sum = 0
  for (const value of values) sum += value
  return sum / values.length
}

/** Throws a RangeError naming `fn` unless the sample is non-empty and every value is finite. */
export function assertSample(fn: string, values: readonly number[]): void {
  if (values.length === 0) throw new RangeError(`${fn}: the sample is empty`)
  const bad = values.findIndex((value) => !Number.isFinite(value))
  if (bad >= 0) throw new RangeError(`${fn}: values[${bad}] is ${values[bad]}, not a finite number`)
}
