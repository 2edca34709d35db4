/**
 * Holm's step-down adjusted p-values (Holm 1979, "A simple sequentially rejective multiple test
 * procedure"): with the m p-values sorted ascending, p̃(i) = max over j ≤ i of min(1, (m − j + 1)·p(j)),
 * returned in the input order. Rejecting every hypothesis with p̃ ≤ α controls the family-wise error
 * rate at α under any dependence — contrastive attribution tests one step per hypothesis and needs
 * exactly that. The adjusted values are monotone in the raw ones and capped at 1. Throws on a
 * p-value outside [0, 1].
 */
export function holm(pValues: readonly number[]): number[] {
  const bad = pValues.findIndex((p) => !(p >= 0 && p <= 1))
  if (bad >= 0) throw new RangeError(`holm: pValues[${bad}] is ${pValues[bad]}, not a probability`)
  const m = pValues.length
  // Sorting indices, not values, so ties keep their input order and the result maps back.
  const order = pValues.map((_, index) => index).sort((a, b) => (pValues[a] ?? 0) - (pValues[b] ?? 0))
  const adjusted = new Array<number>(m).fill(1)
  let running = 0
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * (pValues[index] ?? 1)))
    adjusted[index] = running
  })
  return adjusted
}
