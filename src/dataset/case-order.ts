import { roundOrder } from '../random/round-order.js'
import type { Json } from '../json.js'
import type { Dataset, DatasetCase } from './schema.js'

// The last round order drawn per dataset: rollouts of one round ask for the same order in turn, and
// drawing it is O(cases), so a 500-case round would otherwise cost 500 × 500 draws.
const lastOrder = new WeakMap<object, { seed: number; round: number; order: readonly number[] }>()

/**
 * The case rollout `rollout` of a run seeded with `seed` runs: case `roundOrder(seed, ⌊r/N⌋)[r mod N]`
 * of the dataset's N cases. Every case runs once in each round of N rollouts, in an order drawn
 * uniformly at random from the seed and the round alone: the dataset gate's statistics rest on
 * that (every case once before any case twice, an order independent of the outcomes), and the same
 * (seed, rollout) always runs the same case, so a replay handle names the case too.
 */
export function caseOfRollout<I = Json>(dataset: Dataset<I>, seed: number, rollout: number): DatasetCase<I> {
  const count = dataset.cases.length
  const round = Math.floor(rollout / count)
  let kept = lastOrder.get(dataset)
  if (kept === undefined || kept.seed !== seed || kept.round !== round) {
    kept = { seed, round, order: roundOrder(seed, round, count) }
    lastOrder.set(dataset, kept)
  }
  return dataset.cases[kept.order[rollout % count] as number] as DatasetCase<I>
}

/** The round rollout `rollout` belongs to over a dataset of `cases` cases: each round runs every case once. */
export function roundOfRollout(rollout: number, cases: number): number {
  return Math.floor(rollout / cases)
}
