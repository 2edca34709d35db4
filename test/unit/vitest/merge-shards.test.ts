import { describe, expect, it } from 'vitest'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { FIXED_RUNS_MEAN_METHOD } from '../../../src/stats/fixed-runs-mean.js'
import { mergeShards, type ShardEntry } from '../../../src/vitest/merge-shards.js'
import type { ShardPart } from '../../../src/vitest/shard-part.js'

const ids = Array.from({ length: 10 }, (_, index) => `c-${index + 1}`)
const planted = new Set(['c-2'])

/** Shard `index` of 2 of a "≤ 25%" claim over 10 cases, 4 runs each; the planted case fails every run. */
function part(index: number, owned: readonly string[], overrides: Partial<ShardPart> = {}): ShardEntry {
  const table = owned.map((id) => ({ id, runs: 4, failures: planted.has(id) ? 4 : 0, errors: 0 }))
  const runs = table.length * 4
  const failures = table.reduce((sum, row) => sum + row.failures, 0)
  return {
    test: 'over the cases',
    file: 'sharded.test.js',
    matcher: 'toRarely',
    agent: 'support',
    predicate: 'call issue_refund',
    verdict: 'inconclusive',
    rate: clopperPearson(failures, runs, 0.9),
    rolloutsUsed: runs,
    errors: 0,
    locus: null,
    seed: 1,
    replay: null,
    artifact: null,
    html: null,
    shard: {
      index,
      count: 2,
      runsPerCase: 4,
      direction: 'atMost',
      bound: 0.25,
      confidence: 0.95,
      onInconclusive: 'fail',
      dataset: 'cases',
      cases: 10,
      table,
      ...overrides,
    },
  }
}

const first = part(1, ids.slice(0, 6))
const second = part(2, ids.slice(6))

describe('mergeShards', () => {
  it('decides the mean over every case from the union of the shards, in any order', () => {
    const merged = mergeShards([second, first])
    expect(merged.entry.verdict).toBe('pass')
    expect(merged.failsRun).toBe(false)
    expect(merged.entry.rolloutsUsed).toBe(40)
    expect(merged.entry.rate).toEqual(clopperPearson(4, 40, 1 - 2 * (1 - 0.95)))
    expect(merged.entry.shard).toBeUndefined()
    expect(merged.entry.merged).toMatchObject({
      shards: 2,
      merged: [1, 2],
      missing: [],
      method: FIXED_RUNS_MEAN_METHOD,
    })
    expect(merged.entry.dataset?.worst.map((row) => row.id)).toEqual(['c-2'])
    expect(mergeShards([first, second]).entry).toEqual(merged.entry)
    expect(merged.message).toBe(
      'sharded.test.js > over the cases: pass — mean over 10 cases of dataset "cases" ≤ 25.0%: mean over cases 10.0%, 90% Clopper–Pearson CI 3.5%–21.4% (Clopper–Pearson on the pooled runs, every case K times (Hoeffding 1956)); call issue_refund in 4 of 40 runs (4 per case, from 2 of 2 shards); worst cases: "c-2" 4/4',
    )
  })

  it('fails when the mean is shown above the bound', () => {
    const merged = mergeShards([
      part(1, ids.slice(0, 6), { bound: 0.02 }),
      part(2, ids.slice(6), { bound: 0.02 }),
    ])
    expect(merged.entry.verdict).toBe('fail')
    expect(merged.failsRun).toBe(true)
  })

  it('is inconclusive, naming the shard, when one is missing from the merge', () => {
    const merged = mergeShards([first])
    expect(merged.entry.verdict).toBe('inconclusive')
    expect(merged.failsRun).toBe(true)
    expect(merged.entry.merged?.missing).toEqual([2])
    expect(merged.entry.merged?.reason).toBe('shard 2/2 missing from the merge (4 cases of 10 not run)')
  })

  it('is inconclusive, naming the cases, when a case is counted twice', () => {
    const merged = mergeShards([first, part(2, ids.slice(5))])
    expect(merged.entry.verdict).toBe('inconclusive')
    expect(merged.entry.merged?.countedTwice).toEqual(['c-6'])
    expect(merged.entry.merged?.reason).toContain('1 case counted twice: "c-6"')
  })

  it('is inconclusive when the same shard is merged twice', () => {
    const merged = mergeShards([first, first, second])
    expect(merged.entry.verdict).toBe('inconclusive')
    expect(merged.entry.merged?.reason).toContain('shard 1/2 merged more than once')
  })

  it('is inconclusive when the shards ran different claims, naming the fields', () => {
    const merged = mergeShards([first, part(2, ids.slice(6), { runsPerCase: 8 })])
    expect(merged.entry.verdict).toBe('inconclusive')
    expect(merged.entry.merged?.reason).toContain('shards ran different claims: shard 2/2 (runsPerCase)')
  })

  it('keeps an inconclusive verdict out of the exit code when the claim says onInconclusive: pass', () => {
    const merged = mergeShards([part(1, ids.slice(0, 6), { onInconclusive: 'pass' })])
    expect(merged.entry.verdict).toBe('inconclusive')
    expect(merged.failsRun).toBe(false)
  })

  it('fails when a run ended in an error, as the claim does unsharded', () => {
    const broken = part(2, ids.slice(6))
    broken.shard.table[0] = { id: 'c-7', runs: 1, failures: 0, errors: 1 }
    const merged = mergeShards([first, broken])
    expect(merged.entry.verdict).toBe('fail')
    expect(merged.entry.merged?.reason).toBe('1 run ended in an error')
  })
})
