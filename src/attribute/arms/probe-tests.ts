import { regularizedIncompleteBeta } from '../../stats/incomplete-beta.js'

/**
 * Exact one-sided sign test (McNemar's exact test) of "resampling rescues" on paired outcomes:
 * P(X ≥ better) for X ~ Binomial(better + worse, 1/2). Given the number of discordant pairs, each is
 * a rescue with probability P(better) / (P(better) + P(worse)) ≤ 1/2 under H0: P(bad | arm) ≥
 * P(bad | baseline), so the p-value is valid (conservative) at any effect in H0, with or without
 * common random numbers (pairs at different rollout indices are independent either way).
 */
export function signTestPValue(counts: { better: number; worse: number }): number {
  const { better, worse } = counts
  if (better === 0) return 1
  // P(X ≥ k) = I_{1/2}(k, n − k + 1) for X ~ Binomial(n, 1/2).
  return regularizedIncompleteBeta(0.5, better, worse + 1)
}

/**
 * Context attribution's span probes: the share of a probe's level given to a fixed-sample sign test
 * at the cap; the e-process keeps the rest. An anytime-valid e-process pays for optional stopping:
 * at the cap (32 pairs) it misses moderate rescues (effect about −0.4 under a noisy replay) that a
 * fixed-sample test of the same pairs finds. The p-value is then min(p_e / (1 − s), p_cap / s), a
 * weighted Bonferroni combination: P(p ≤ t) ≤ P(p_e ≤ (1 − s)·t) + P(p_cap ≤ s·t) ≤ t under the
 * null, because p_e is valid at any stopping time (Ville) and p_cap is an exact test of the pairs at
 * the cap, a sample size fixed in advance (the arm either reaches it or the cap test is never used).
 */
export const CAP_TEST_SHARE = 0.75

/** One exact sign test of a binary-search probe: its sample size in multiples of `rollouts`, and its share of the step's level. */
export interface ProbeCapTest {
  readonly size: number
  readonly share: number
}

/**
 * Contrastive binary search: the exact sign tests a probe can get, each at a sample size fixed in
 * advance — `rollouts` pairs (the cap) and, for a probe the search extends, twice that — and each
 * with its share of the step's level; the e-process keeps the rest ({@link PROBE_E_PROCESS_SHARE}).
 *
 * Why a second size: on a noisy replay a real rescue often falls short of Holm's first threshold
 * (α / n) at 32 pairs, and a binary search then never names the step. Doubling the pairs of that
 * undecided probe usually decides it (see `ContrastiveRun.extend`). Why these shares, chosen on
 * noisy 15-step models (bench/binary-search.ts, 1,000 models each): the test at the cap still
 * decides most probes without extending them, and the extended test has enough level to decide
 * most of the rest; 0.5 / 0.3 (e-process 0.2), 0.45 / 0.45, an extra test at 3 × `rollouts` and a
 * second test at 1.5 × `rollouts` found no more loci. The e-process, left with 0.1, needs ln 10 of
 * wealth where it needed ln 4 to stop a rescue early (about two more one-sided pairs), which
 * costs a few rollouts, not loci.
 */
export const PROBE_CAP_TESTS: readonly ProbeCapTest[] = [
  { size: 1, share: 0.6 },
  { size: 2, share: 0.3 },
]

/**
 * Contrastive binary search extends an undecided probe only when the sign test of its pairs at
 * the cap is at most this: a futility rule. To be rejected after the extension the probe needs
 * p ≤ 0.3 · α / n or so at twice the pairs, which a probe this far from significance at the cap
 * rarely reaches; the pairs it would draw mostly go to steps after the locus that lean toward a
 * rescue by chance. On noisy 15-step models (bench/binary-search.ts) 0.1 found as many loci as
 * extending every leaning probe (97.6% against 97.4%) with 26 fewer rollouts on average, and one
 * false discovery fewer in 1,000; 0.05 and 0.02 found fewer (97.1%, 95.7%). It only decides which
 * pairs are drawn, never a test.
 */
export const EXTEND_BELOW = 0.1

/** The share of each step's level the e-process keeps in a binary search. */
export const PROBE_E_PROCESS_SHARE = 0.1

/** An exact sign test at a sample size fixed in advance: its pairs, and its share of the arm's level. */
export interface FixedSizeTest {
  readonly pairs: number
  readonly share: number
}

/**
 * An arm's one-sided p-value from its e-process (the running maximum of ln e, at `eProcessShare`
 * of the level) and its exact sign tests at fixed sizes (undefined: the arm never reached that
 * size, counted as p = 1), combined by weighted Bonferroni. With shares s_e + Σ s_i = 1,
 * P(p ≤ t) ≤ P(p_e ≤ s_e·t) + Σ P(p_i ≤ s_i·t) ≤ t under the arm's null: p_e is valid at any
 * stopping time (Ville), and each p_i is valid even though whether the arm reaches size i depends
 * on its earlier pairs: the first size_i pairs of the arm and the reference exist whether or not
 * they are run (rollout r of an arm is fixed by its seed and r), and counting p_i as 1 when they
 * were not run only raises it. Without fixed tests (`eProcessShare` 1): the e-process alone.
 */
export function combinedPValue(
  maxLogE: number,
  eProcessShare: number,
  tests: readonly FixedSizeTest[],
  pValues: ReadonlyArray<number | undefined>,
): number {
  let p = Math.exp(-maxLogE) / eProcessShare
  tests.forEach((test, i) => {
    const pValue = pValues[i]
    if (pValue !== undefined) p = Math.min(p, pValue / test.share)
  })
  return Math.min(1, p)
}
