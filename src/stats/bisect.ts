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

/**
 * The least count m in (after, most] at which a monotone `decides` turns true: doubling from
 * 2·after until it holds, then bisection between the last count that did not and the first that
 * did. Null when it does not hold by `most`. How many rollouts a rate that persists would need.
 */
export function firstDecidingCount(
  decides: (m: number) => boolean,
  after: number,
  most: number,
): number | null {
  let undecided = after
  let decided = 2 * after
  while (!decides(decided)) {
    if (decided >= most) return null
    undecided = decided
    decided = Math.min(2 * decided, most)
  }
  while (decided - undecided > 1) {
    const middle = Math.floor((undecided + decided) / 2)
    if (decides(middle)) decided = middle
    else undecided = middle
  }
  return decided
}
