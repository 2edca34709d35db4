/**
 * The point in [from, to] where a monotone predicate turns from false to true, to within
 * `tolerance` (or to floating-point resolution, whichever comes first). Every interval end and
 * inverse in this folder that has no closed form is found this way: bisection cannot diverge, and
 * the predicates it inverts (score statistics, e-values, the incomplete beta) are monotone.
 */
export function bisect(
  turnsTrue: (x: number) => boolean,
  from: number,
  to: number,
  tolerance: number,
): number {
  let low = from
  let high = to
  while (high - low > tolerance) {
    const middle = (low + high) / 2
    // Past floating-point resolution the midpoint is an end: halving further changes nothing.
    if (middle === low || middle === high) break
    if (turnsTrue(middle)) high = middle
    else low = middle
  }
  return (low + high) / 2
}
