import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { baselinePath, BaselineFileSchema } from '../../../src/verdict/baseline-file.js'
import type { UpdateState } from '../../../src/verdict/baseline-file.js'
import { runBaselineGate } from '../../../src/verdict/baseline-gate.js'
import type { ResolvedBaseline } from '../../../src/verdict/options.js'
import { claimDirection } from '../../../src/verdict/schema.js'
import { baselineGate, coinAgent, subject, type GateOverrides } from './gate-helpers.js'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'causal-replay-baseline-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function measure(
  p: number,
  updateState: UpdateState,
  key = 'agent keeps its refund rate 1',
  overrides: GateOverrides<ResolvedBaseline> = {},
) {
  const file = baselinePath(join(dir, 'agent.test.ts'))
  return runBaselineGate(
    coinAgent(p, 'support').on({ p }),
    { ...subject(), agent: 'support' },
    baselineGate(overrides),
    { file, displayFile: '__baselines__/agent.test.ts.rates.json', key, updateState },
  )
}

describe('runBaselineGate', () => {
  it('records a missing baseline, then passes an unchanged agent with a zero difference', async () => {
    const created = await measure(0.1, 'new')
    expect(created.verdict.kind).toBe('pass')
    expect(created.verdict.baseline).toMatchObject({ status: 'created', stored: null })
    const file = BaselineFileSchema.parse(
      JSON.parse(await readFile(join(dir, '__baselines__/agent.test.ts.rates.json'), 'utf8')),
    )
    const entry = file.entries['agent keeps its refund rate 1']!
    expect(entry).toMatchObject({ n: 100, seed: 7, agent: 'support', better: 'lower' })
    expect(entry.rate).toBe(entry.successes / entry.n)

    const again = await measure(0.1, 'none')
    expect(again.verdict.kind).toBe('pass')
    expect(again.verdict.baseline.status).toBe('compared')
    expect(again.verdict.baseline.difference!.point).toBe(0)
    expect(again.verdict.baseline.finding).toBe('reproduced')
    expect(entry.outcomes).toHaveLength(100)
    // Both rates are printed with Clopper–Pearson's interval, whose coverage
    // test/unit/stats/fixed-rate-coverage.test.ts checks.
    const exact = clopperPearson(entry.successes, entry.n, 0.95)
    expect(again.verdict.observed).toEqual(exact)
    expect(again.verdict.baseline.stored).toEqual(exact)
  })

  it('fails a 17-point regression (23% → 40%) at 100 rollouts with tolerance 0.05', async () => {
    await measure(0.23, 'new', 'k', { tolerance: 0.05 })
    // Another seed: independent runs, nothing reproduced.
    const worse = await measure(0.4, 'new', 'k', { tolerance: 0.05, seed: 8 })
    expect(worse.verdict.kind).toBe('fail')
    expect(['undecided', 'regressed']).toContain(worse.verdict.baseline.finding)
    expect(worse.verdict.baseline.difference!.high).toBeGreaterThan(0.05)
    expect(worse.verdict.baseline.difference!.confidence).toBeCloseTo(0.9, 12)
  })

  it('passes a changed agent only when its worse bound lies within the tolerance', async () => {
    await measure(0.23, 'new', 'k')
    // The same rate from another seed is a change the gate cannot tell from a regression at tolerance 0…
    const other = await measure(0.23, 'new', 'k', { seed: 11 })
    expect(other.verdict.kind).toBe('fail')
    expect(other.verdict.baseline.finding).toBe('undecided')
    // Another seed makes the runs independent: two rates are compared, not pairs.
    expect(other.verdict.baseline.difference!.method).toBe('newcombe-corrected')
    expect(other.verdict.baseline.pairs).toBeNull()
    // …but within a 20-point tolerance its 95% upper bound is.
    const tolerated = await measure(0.23, 'new', 'k', { seed: 11, tolerance: 0.2 })
    expect(tolerated.verdict.kind).toBe('pass')
    expect(tolerated.verdict.baseline.finding).toBe('within')
  })

  it('fails a significant regression (paired interval above the tolerance) and names a failing rollout', async () => {
    await measure(0.05, 'new')
    const worse = await measure(0.4, 'new')
    expect(worse.verdict.kind).toBe('fail')
    expect(worse.verdict.baseline.finding).toBe('regressed')
    // The stored seed: the runs are paired rollout by rollout.
    expect(worse.verdict.baseline.difference!.method).toBe('tango-corrected')
    const pairs = worse.verdict.baseline.pairs!
    expect(pairs.worse + pairs.better + pairs.same).toBe(100)
    expect(pairs.worse).toBeGreaterThan(pairs.better)
    expect(worse.verdict.baseline.difference!.low).toBeGreaterThan(0)
    expect(worse.failing!.output).toBe('bad')
    // A tolerance wider than the regression's upper bound lets it pass.
    const tolerated = await measure(0.4, 'new', undefined, { tolerance: 0.6 })
    expect(tolerated.verdict.kind).toBe('pass')
    // A clear improvement passes at tolerance 0.
    const better = await measure(0, 'new')
    expect(better.verdict.kind).toBe('pass')
    expect(better.verdict.baseline.finding).toBe('within')
  })

  it('better: "higher" flips the worse side', async () => {
    await measure(0.4, 'new', 'k', { better: 'higher' })
    const lower = await measure(0.05, 'new', 'k', { better: 'higher' })
    expect(lower.verdict.kind).toBe('fail')
    expect(claimDirection(lower.verdict)).toBe('atLeast')
  })

  it('in CI (update state none) a missing entry fails without writing; -u (all) rewrites', async () => {
    const missing = await measure(0.1, 'none')
    expect(missing.verdict.kind).toBe('fail')
    expect(missing.verdict.baseline.status).toBe('missing')
    expect(missing.verdict.replay).toBeNull()
    await expect(readFile(baselinePath(join(dir, 'agent.test.ts')), 'utf8')).rejects.toThrow(/ENOENT/)

    await measure(0.05, 'new')
    const updated = await measure(0.4, 'all')
    expect(updated.verdict.kind).toBe('pass')
    expect(updated.verdict.baseline.status).toBe('updated')
    expect(updated.verdict.baseline.stored!.point).toBeLessThan(0.2)
    const compared = await measure(0.4, 'none')
    expect(compared.verdict.baseline.difference!.point).toBe(0)
  })

  it('a corrupted file is a clear error and left unchanged, under -u too (its other entries would be lost)', async () => {
    const file = baselinePath(join(dir, 'agent.test.ts'))
    await measure(0.1, 'new')
    const corrupted = (await readFile(file, 'utf8')).replace('"n": 100', '"n": -3')
    await writeFile(file, corrupted)
    await expect(measure(0.1, 'new')).rejects.toThrow(
      /Invalid baseline in .*agent\.test\.ts\.rates\.json:[\s\S]*n[\s\S]*left unchanged.*delete it and run `vitest -u`/,
    )
    expect(await readFile(file, 'utf8')).toBe(corrupted)
    await expect(measure(0.1, 'all', 'another key')).rejects.toThrow(/Invalid baseline/)
    expect(await readFile(file, 'utf8')).toBe(corrupted)
    await writeFile(file, '{ not json')
    await expect(measure(0.1, 'none')).rejects.toThrow(/not valid JSON/)
    await expect(measure(0.1, 'all')).rejects.toThrow(/not valid JSON/)
    expect(await readFile(file, 'utf8')).toBe('{ not json')
  })

  it('keeps other entries of the file when writing one', async () => {
    await Promise.all([measure(0.1, 'new', 'a'), measure(0.2, 'new', 'b'), measure(0.3, 'new', 'c')])
    const file = BaselineFileSchema.parse(
      JSON.parse(await readFile(baselinePath(join(dir, 'agent.test.ts')), 'utf8')),
    )
    expect(Object.keys(file.entries)).toEqual(['a', 'b', 'c'])
  })

  it('fails an entry recorded for another agent or predicate (a mismatch), unless -u rewrites it', async () => {
    await measure(0.1, 'new')
    const file = baselinePath(join(dir, 'agent.test.ts'))
    const other = (updateState: UpdateState) =>
      runBaselineGate(
        coinAgent(0.1, 'support').on({ p: 0.1 }),
        { ...subject(), agent: 'support', label: 'return good' },
        baselineGate(),
        {
          file,
          displayFile: '__baselines__/agent.test.ts.rates.json',
          key: 'agent keeps its refund rate 1',
          updateState,
        },
      )
    const mismatch = await other('new')
    expect(mismatch.verdict.kind).toBe('fail')
    expect(mismatch.verdict.baseline).toMatchObject({
      status: 'mismatch',
      difference: null,
      storedFor: { agent: 'support', predicate: 'return bad' },
    })
    expect(mismatch.verdict.replay).toBeNull()
    const rewritten = await other('all')
    expect(rewritten.verdict.kind).toBe('pass')
    expect(rewritten.verdict.baseline.status).toBe('updated')
  })
})
