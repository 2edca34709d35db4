import { assertCount } from './validate.js'

/** The method a pass^k estimate names. */
export const PASS_K_METHOD =
  "unbiased estimator C(c, k)/C(n, k); interval: the rate's interval raised to the k-th power"

/** pass^k: the chance that k independent runs all succeed, with its interval. */
export interface PassK {
  readonly k: number
  /** The unbiased estimate C(c, k)/C(n, k) of p^k from c successes in n runs. */
  readonly point: number
  readonly low: number
  readonly high: number
}

/**
 * The unbiased estimator of pass^k = p^k from `successes` c of n runs: C(c, k)/C(n, k), the chance
 * that k of the n runs drawn without replacement all succeeded (Yao et al. 2024, τ-bench, the
 * all-k counterpart of Chen et al.'s 2021 pass@k). Its expectation over Binomial(n, p) is exactly
 * p^k for every k ≤ n, where the plug-in (c/n)^k is biased upward. Computed as a product of
 * ratios, which neither overflows nor loses precision for large n.
 */
export function passHatK(successes: number, n: number, k: number): number {
  assertCount('passHatK', successes, n)
  if (!Number.isInteger(k) || k < 1 || k > n) {
    throw new RangeError(`passHatK: k must be an integer in [1, n = ${n}], got ${k}`)
  }
  let estimate = 1
  for (let i = 0; i < k; i++) estimate *= (successes - i) / (n - i)
  return Math.max(0, estimate)
}

/**
 * pass^k for each k ≤ n of `ks`, with the interval [low^k, high^k] from an interval [low, high]
 * of the success rate p: x ↦ x^k increases on [0, 1], so the new interval covers p^k exactly when
 * the old one covers p, at its level and under its conditions (a confidence sequence stays valid
 * at a sequential stop). The interval is widened to hold the point where the unbiased estimate,
 * which lies below (c/n)^k, falls under low^k.
 */
export function passK(
  successes: number,
  n: number,
  ks: readonly number[],
  rate: { readonly low: number; readonly high: number },
): PassK[] {
  assertCount('passK', successes, n)
  return ks
    .filter((k) => k <= n)
    .map((k) => {
      const point = passHatK(successes, n, k)
      return { k, point, low: Math.min(rate.low ** k, point), high: Math.max(rate.high ** k, point) }
    })
}
