import { describe, expect, it } from 'vitest'
import { casesOfShard, parseShard, shardOfCase } from '../../../src/dataset/shard.js'
import { defineDatasetIn } from '../../../src/dataset/define-dataset.js'
import { InvalidOptionError } from '../../../src/errors.js'

const ids = Array.from({ length: 50 }, (_, index) => `t-${String(index + 1).padStart(2, '0')}`)
const tickets = defineDatasetIn(
  process.cwd(),
  'tickets',
  ids.map((id) => ({ id, input: { id } })),
)

describe('parseShard', () => {
  it('reads "i/n" as Vitest writes --shard', () => {
    expect(parseShard('2/3', 'CAUSAL_REPLAY_SHARD', 'CAUSAL_REPLAY_SHARD')).toEqual({ index: 2, count: 3 })
    expect(parseShard(' 1 / 1 ', 'c', 'o')).toEqual({ index: 1, count: 1 })
  })

  it.each(['0/2', '3/2', '1/0', 'a/b', '1', '1/2/3', '-1/2'])('refuses %j, naming the variable', (text) => {
    const error = (() => {
      try {
        parseShard(text, 'CAUSAL_REPLAY_SHARD', 'CAUSAL_REPLAY_SHARD')
      } catch (caught) {
        return caught
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(InvalidOptionError)
    expect((error as InvalidOptionError).option).toBe('CAUSAL_REPLAY_SHARD')
    expect((error as Error).message).toContain('"i/n" with 1 ≤ i ≤ n')
  })
})

describe('shardOfCase', () => {
  it('splits the cases into disjoint shards that cover them all', () => {
    for (const count of [1, 2, 3, 7]) {
      const shards = Array.from({ length: count }, (_, index) =>
        casesOfShard(tickets, { index: index + 1, count }).cases.map((each) => each.id),
      )
      expect(shards.flat().sort()).toEqual(ids)
    }
  })

  it('depends on the id and the count alone, not on where the case is in the file', () => {
    const reversed = defineDatasetIn(
      process.cwd(),
      'tickets',
      [...ids].reverse().map((id) => ({ id, input: { id } })),
    )
    const forward = casesOfShard(tickets, { index: 1, count: 2 }).cases.map((each) => each.id)
    const backward = casesOfShard(reversed, { index: 1, count: 2 }).cases.map((each) => each.id)
    expect([...backward].sort()).toEqual(forward)
    // Pinned: a change to the hash would move cases between machines of a running matrix.
    expect(ids.map((id) => shardOfCase(id, 2)).join('')).toMatchInlineSnapshot(
      `"11221111222122221221211221221222111121212111212121"`,
    )
  })

  it('keeps the dataset name and file, and the cases in their order', () => {
    const half = casesOfShard(tickets, { index: 2, count: 2 })
    expect(half.name).toBe('tickets')
    expect(half.kind).toBe('dataset')
    expect(half.cases.map((each) => each.position)).toEqual(
      [...half.cases.map((each) => each.position)].sort((a, b) => a - b),
    )
  })
})
