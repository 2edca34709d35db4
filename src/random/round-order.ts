import seedrandom from 'seedrandom'

/**
 * The order in which round `round` (0, 1, …) of a run seeded with `seed` visits a dataset's
 * `cases` cases: a uniformly random permutation of 0 … cases − 1, drawn by Fisher–Yates from its own
 * stream (seedrandom's `alea` keyed `seed/round:round`), so every case runs once before any runs
 * twice, each round's order is independent of the others and of the runs' own randomness, and the
 * same seed gives the same orders whatever order the rounds are asked for in. The dataset gate's
 * validity rests on the order being uniform and independent of the outcomes.
 */
export function roundOrder(seed: number, round: number, cases: number): number[] {
  if (!Number.isInteger(cases) || cases < 0)
    throw new RangeError(`roundOrder: cases must be a non-negative integer, got ${cases}`)
  const random = seedrandom.alea(roundStreamKey(seed, round))
  const order = Array.from({ length: cases }, (_, index) => index)
  for (let last = cases - 1; last > 0; last--) {
    const pick = Math.floor(random() * (last + 1))
    const picked = order[pick] as number
    order[pick] = order[last] as number
    order[last] = picked
  }
  return order
}

/** The text that seeds round `round`'s order (see {@link roundOrder}). */
export function roundStreamKey(seed: number, round: number): string {
  return `${seed}/round:${round}`
}
