import { logGamma } from './log-gamma.js'

/**
 * The likelihood of a round's prefix as a function of the round's total, and a convex,
 * nonincreasing majorant of it: the two pieces of the dataset gate's bound on that likelihood under
 * a composite null (see `dataset-rate-test.ts`).
 *
 * A round runs each of `cases` cases once, in a uniformly random order. Given that K of the round's
 * coins came up 1, its first `runs` outcomes are a uniform draw without replacement from K ones and
 * cases − K zeros, so a prefix with `successes` ones has probability
 * h(k) = [k]_s [N − k]_(t−s) / [N]_t (falling factorials; N cases, t runs, s successes).
 * Everything here is computed in logs and scaled by h at its mode, so it neither overflows nor
 * underflows for any dataset size.
 */
export interface RoundLikelihoodMajorant {
  /** ln h at its mode: `likelihood` and `majorant` are h and ĥ divided by e^logScale. */
  readonly logScale: number
  /** Where h is largest (the lowest such total). */
  readonly mode: number
  /** The cut k_c ≥ mode: ĥ is the line through (k_c, h(k_c)) and (k_c + 1, h(k_c + 1)) below it. */
  readonly cut: number
  /** h(k) / e^logScale for k = 0 … cases (0 outside s ≤ k ≤ cases − (t − s)). */
  readonly likelihood: Float64Array
  /** ĥ(k) / e^logScale for k = 0 … cases: convex, nonincreasing, ≥ likelihood everywhere. */
  readonly majorant: Float64Array
}

/**
 * h and its majorant ĥ for a round of `cases` cases of which `runs` have run, `successes` of them
 * successes (see {@link RoundLikelihoodMajorant}).
 *
 * h is log-concave in k (a product of binomial coefficients in k), so it rises to one mode, falls
 * concavely for a while and then convexly. ĥ keeps h where it is convex and replaces everything left
 * of there with one line: the cut k_c walks right from the mode while h is still concave at k_c + 1,
 * and ĥ(k) = h(k_c) + (h(k_c + 1) − h(k_c))·(k − k_c) for k < k_c. That line lies on or above h on
 * [mode, k_c], where h is concave, and so above h(mode) ≥ h everywhere left of the mode. Right of the
 * cut ĥ follows h but never bends down: ĥ(k) = max(h(k), ĥ(k − 1) + last slope), which is h itself
 * wherever h is convex and lifts the rare concave kink of a small round's far tail (one zero among
 * the runs makes h fall linearly to 0 at the end of its support), keeping every slope ≤ 0 since h
 * falls right of its mode. With no run, h ≡ 1; with no zero yet, h rises to its mode at k = cases
 * and ĥ is the constant h(cases).
 */
export function roundLikelihoodMajorant(
  cases: number,
  runs: number,
  successes: number,
): RoundLikelihoodMajorant {
  assertRound('roundLikelihoodMajorant', cases, runs, successes)
  const logFactorial = logFactorials(cases)
  const failures = runs - successes
  const lastInSupport = cases - failures
  const logNormalizer = at(logFactorial, cases) - at(logFactorial, cases - runs)
  const logLikelihood = (k: number) =>
    at(logFactorial, k) -
    at(logFactorial, k - successes) +
    at(logFactorial, cases - k) -
    at(logFactorial, cases - k - failures) -
    logNormalizer
  let mode = successes
  let logScale = logLikelihood(successes)
  for (let k = successes + 1; k <= lastInSupport; k++) {
    const value = logLikelihood(k)
    if (value > logScale) {
      logScale = value
      mode = k
    }
  }
  const likelihood = new Float64Array(cases + 1)
  for (let k = successes; k <= lastInSupport; k++) likelihood[k] = Math.exp(logLikelihood(k) - logScale)
  const h = (k: number) => at(likelihood, k)
  let cut = mode
  while (cut + 2 <= cases && h(cut + 1) - h(cut) > h(cut + 2) - h(cut + 1)) cut++
  const majorant = new Float64Array(cases + 1)
  let slope = cut < cases ? h(cut + 1) - h(cut) : 0
  for (let k = 0; k <= cut; k++) majorant[k] = h(cut) + slope * (k - cut)
  for (let k = cut + 1; k <= cases; k++) {
    const value = Math.max(h(k), at(majorant, k - 1) + slope)
    slope = value - at(majorant, k - 1)
    majorant[k] = value
  }
  return { logScale, mode, cut, likelihood, majorant }
}

/**
 * ln C ≥ 0 for one round, against H0: mean rate ≥ the null: C = E ĥ(K) / (q^s (1 − q)^(t−s)) with
 * K ~ Binomial(cases, q) and q the null rate, given as log-odds `theta` so that rates next to 0 or 1
 * stay exact. The denominator is E h(K) under that binomial (the iid likelihood of the prefix), so
 * C = 1 + Σ_k P(K = k)(ĥ(k) − h(k)) / (q^s (1 − q)^(t−s)), summed in logs. For the other null
 * (mean rate ≤ q), call it with the zeros counted as successes and −theta.
 */
export function logRoundCorrection(cases: number, runs: number, successes: number, theta: number): number {
  if (runs === 0) return 0
  if (runs < cases) return computeLogRoundCorrection(cases, runs, successes, theta)
  // A complete round's correction is asked again at every later look: keep it.
  const key = `${cases}/${successes}/${theta}`
  let value = completeRoundCorrections.get(key)
  if (value === undefined) {
    if (completeRoundCorrections.size >= MAX_KEPT_CORRECTIONS) completeRoundCorrections.clear()
    value = computeLogRoundCorrection(cases, runs, successes, theta)
    completeRoundCorrections.set(key, value)
  }
  return value
}

const MAX_KEPT_CORRECTIONS = 4096
const completeRoundCorrections = new Map<string, number>()

function computeLogRoundCorrection(cases: number, runs: number, successes: number, theta: number): number {
  const { logScale, likelihood, majorant } = roundLikelihoodMajorant(cases, runs, successes)
  const logFactorial = logFactorials(cases)
  const logRate = -softplus(-theta)
  const logComplement = -softplus(theta)
  const failures = runs - successes
  const terms: number[] = [0]
  for (let k = 0; k <= cases; k++) {
    const excess = at(majorant, k) - at(likelihood, k)
    if (!(excess > 0)) continue
    // P(K = k) / (q^s (1 − q)^(t−s)), with the powers of q and 1 − q cancelled first.
    const logWeight =
      at(logFactorial, cases) -
      at(logFactorial, k) -
      at(logFactorial, cases - k) +
      (k - successes) * logRate +
      (cases - k - failures) * logComplement
    terms.push(logWeight + logScale + Math.log(excess))
  }
  return logSumExp(terms)
}

// The ln k! table of the last dataset size asked about: a gate asks about one size at every look.
let cachedLogFactorials = new Float64Array([0])

/** ln k! for k = 0 … cases. */
function logFactorials(cases: number): Float64Array {
  if (cachedLogFactorials.length !== cases + 1) {
    const table = new Float64Array(cases + 1)
    for (let k = 2; k <= cases; k++) table[k] = logGamma(k + 1)
    cachedLogFactorials = table
  }
  return cachedLogFactorials
}

function at(values: Float64Array, index: number): number {
  return values[index] as number
}

/** ln(1 + eˣ) without overflow or loss of precision. */
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x))
}

function logSumExp(terms: readonly number[]): number {
  let max = -Infinity
  for (const term of terms) max = Math.max(max, term)
  if (max === Infinity) return Infinity
  let sum = 0
  for (const term of terms) sum += Math.exp(term - max)
  return max + Math.log(sum)
}

function assertRound(fn: string, cases: number, runs: number, successes: number): void {
  if (!Number.isInteger(cases) || cases < 1)
    throw new RangeError(`${fn}: cases must be a positive integer, got ${cases}`)
  if (!Number.isInteger(runs) || runs < 0 || runs > cases)
    throw new RangeError(`${fn}: a round's runs must be an integer in [0, cases = ${cases}], got ${runs}`)
  if (!Number.isInteger(successes) || successes < 0 || successes > runs)
    throw new RangeError(`${fn}: successes must be an integer in [0, runs = ${runs}], got ${successes}`)
}
