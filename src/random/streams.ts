/** A uniform draw in [0, 1). Each step gets its own; see {@link stepStream}. */
export type Rng = () => number

/**
 * The stream of step `step` in rollout `rollout` of a run seeded with `seed`. Every
 * (seed, rollout, step) has its own generator, so results do not depend on the order in which
 * concurrent rollouts happen to draw, and an arm that resamples step k leaves every later step j
 * on the same stream (r, j) as the other arms: common random numbers.
 *
 * The generator is seedrandom's `alea` seeded with {@link streamKey}: the same numbers, draw for
 * draw (tested against seedrandom), from the inlined algorithm below. It is seeded lazily, on the
 * first draw, so held and forced steps never pay for it, and a stream is one closure where
 * `seedrandom.alea` allocates six (with the three constant `mash(' ')` rounds precomputed): on a
 * fast synthetic agent the streams were the largest share of the engine's time and garbage.
 */
export function stepStream(seed: number, rollout: number, step: number): Rng {
  // The generator's state lives in this one closure (s0 < 0: not seeded yet) rather than in a
  // second closure made on the first draw: one allocation less for every step that draws.
  let s0 = -1
  let s1 = 0
  let s2 = 0
  let c = 1
  return () => {
    if (s0 < 0) {
      const at = seededState(seed, rollout, step)
      s0 = SEEDED_STATES[at] as number
      s1 = SEEDED_STATES[at + 1] as number
      s2 = SEEDED_STATES[at + 2] as number
    }
    const t = 2091639 * s0 + c * TWO_TO_MINUS_32
    s0 = s1
    s1 = s2
    return (s2 = t - (c = t | 0))
  }
}

// The seeded states of recent stream keys, one slot per key hash, overwritten on a collision. Arms
// of an attribution draw on the same streams (common random numbers: every arm's rollout r draws
// step j from (seed, r, j), and Shapley's prefixes share their permutation's seed), so about half
// the streams of an attribution were seeded before, by another arm. Typed arrays, not objects:
// the cache adds nothing for the garbage collector to trace or copy.
const SEEDED_SLOTS = 1024
const SEEDED_KEYS = new Float64Array(SEEDED_SLOTS * 3).fill(NaN)
const SEEDED_STATES = new Float64Array(SEEDED_SLOTS * 3)

/**
 * Alea's seeding of the stream (seed, rollout, step): its three state fractions (the carry starts
 * at 1), left in SEEDED_STATES at the returned index. Equal numbers have equal key text (0 and −0
 * both give "0"), so a slot whose numbers match holds the same state.
 */
function seededState(seed: number, rollout: number, step: number): number {
  const at =
    3 * ((Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(rollout | 0, 0x85ebca6b) ^ step) & (SEEDED_SLOTS - 1))
  if (SEEDED_KEYS[at] === seed && SEEDED_KEYS[at + 1] === rollout && SEEDED_KEYS[at + 2] === step) return at
  const length = writeStreamKey(seed, rollout, step)
  let n0: number
  let n1: number
  let n2: number
  if (length < 0) {
    const key = streamKey(seed, rollout, step)
    n0 = mash(MASH_3, key)
    n1 = mash(n0, key)
    n2 = mash(n1, key)
  } else {
    // The first round starts from the hash of the key's "seed/", which every stream of the seed shares.
    n0 = mashBytes(prefixMash, prefixLength, length)
    n1 = mashBytes(n0, 0, length)
    n2 = mashBytes(n1, 0, length)
  }
  SEEDED_KEYS[at] = seed
  SEEDED_KEYS[at + 1] = rollout
  SEEDED_KEYS[at + 2] = step
  SEEDED_STATES[at] = fraction(MASH_1, n0)
  SEEDED_STATES[at + 1] = fraction(MASH_2, n1)
  SEEDED_STATES[at + 2] = fraction(MASH_3, n2)
  return at
}

// Johannes Baagøe's Alea, as in seedrandom 3.0.5 (lib/alea.js, MIT): a Mash hash seeds three
// 32-bit fractions s0..s2 and a carry c; each draw is a multiply-with-carry step.
const TWO_TO_MINUS_32 = 2.3283064365386963e-10

function mash(n: number, data: string): number {
  for (let i = 0; i < data.length; i++) {
    n += data.charCodeAt(i)
    let h = 0.02519603282416938 * n
    n = h >>> 0
    h -= n
    h *= n
    n = h >>> 0
    h -= n
    n += h * 0x100000000 // 2^32
  }
  return n
}

// The character codes of a step's stream key, written by writeStreamKey: the key of almost every
// step is three small non-negative integers, whose text (number strings, the concatenation and its
// flattening for charCodeAt) was most of a stream's seeding cost.
const KEY_CODES = new Uint8Array(3 * 16 + 2)

// The seed whose "seed/" KEY_CODES starts with, that prefix's length, and the first Mash round's
// state after it. A run's streams (an arm's, a Shapley permutation's) share one seed: its digits
// are written and hashed once rather than for every stream, about a quarter of the hashing.
let prefixSeed = NaN
let prefixLength = 0
let prefixMash = 0

/**
 * Writes the character codes of `streamKey(seed, rollout, step)` into KEY_CODES and returns their
 * count, or −1 when a number is not a non-negative safe integer (its text is left to `String`).
 * The codes of "seed/" are left from the last key when its seed was the same (0 and −0 share "0").
 */
function writeStreamKey(seed: number, rollout: number, step: number): number {
  if (!isPlainInteger(seed) || !isPlainInteger(rollout) || !isPlainInteger(step)) return -1
  if (seed !== prefixSeed) {
    let at = writeDigits(seed, 0)
    KEY_CODES[at++] = SLASH
    prefixSeed = seed
    prefixLength = at
    prefixMash = mashBytes(MASH_3, 0, at)
  }
  let at = writeDigits(rollout, prefixLength)
  KEY_CODES[at++] = SLASH
  return writeDigits(step, at)
}

const SLASH = 0x2f
const DIGIT_ZERO = 0x30

/** True for a number whose text is its decimal digits (−0 too: its text is "0", as its digits are). */
function isPlainInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0
}

/** Writes the decimal digits of a non-negative safe integer at `at`; returns the index after them. */
function writeDigits(value: number, at: number): number {
  // Below 2^31 (rollout and step indices, derived seeds), integer division: a double's `%` is a
  // library call.
  if (value < 0x80000000) {
    let digits = 1
    for (let rest = value | 0; rest >= 10; rest = (rest / 10) | 0) digits++
    let rest = value | 0
    for (let i = at + digits - 1; i >= at; i--) {
      const quotient = (rest / 10) | 0
      KEY_CODES[i] = DIGIT_ZERO + rest - 10 * quotient
      rest = quotient
    }
    return at + digits
  }
  let digits = 1
  for (let rest = value; rest >= 10; rest = (rest - (rest % 10)) / 10) digits++
  let rest = value
  for (let i = at + digits - 1; i >= at; i--) {
    const digit = rest % 10
    KEY_CODES[i] = DIGIT_ZERO + digit
    rest = (rest - digit) / 10
  }
  return at + digits
}

/** {@link mash} over the codes of KEY_CODES from `from` to `length`. */
function mashBytes(n: number, from: number, length: number): number {
  for (let i = from; i < length; i++) {
    n += KEY_CODES[i] as number
    let h = 0.02519603282416938 * n
    n = h >>> 0
    h -= n
    h *= n
    n = h >>> 0
    h -= n
    n += h * 0x100000000 // 2^32
  }
  return n
}

// seedrandom starts every generator with mash(' ') three times on a fresh Mash: constants.
const MASH_START = 0xefc8249d
const MASH_1 = mash(MASH_START, ' ')
const MASH_2 = mash(MASH_1, ' ')
const MASH_3 = mash(MASH_2, ' ')

// Alea's seeding of one state fraction: the start constant minus the hash, wrapped into [0, 1).
function fraction(start: number, n: number): number {
  const value = (start >>> 0) * TWO_TO_MINUS_32 - (n >>> 0) * TWO_TO_MINUS_32
  return value < 0 ? value + 1 : value
}

/**
 * The stream of call `call` of the judge `judge` on rollout `rollout` of a run seeded with `seed`:
 * a family of streams beside the steps', keyed by the judge rather than by a step index, so the
 * judge of rollout r draws the same numbers in every arm of an attribution (common random
 * numbers) however many steps each arm's run took, and two judges of one run draw apart.
 */
export function judgeStream(seed: number, rollout: number, judge: string, call: number): Rng {
  return keyedStream(judgeStreamKey(seed, rollout, judge, call))
}

/** The text that seeds a judge's stream (see {@link judgeStream}). */
export function judgeStreamKey(seed: number, rollout: number, judge: string, call: number): string {
  return `${seed}/${rollout}/judge:${judge}/${call}`
}

/** The 31-bit provider seed of a judge's call, as {@link providerSeed} is a step's. */
export function judgeProviderSeed(seed: number, rollout: number, judge: string, call: number): number {
  return hash32(judgeStreamKey(seed, rollout, judge, call)) & 0x7fffffff
}

// Alea seeded with any key: the judge streams. Steps keep their own closure (see stepStream), whose
// allocation profile matters on fast agents; a judge call is a model call, so this costs nothing.
function keyedStream(key: string): Rng {
  let n = mash(MASH_3, key)
  let s0 = fraction(MASH_1, n)
  n = mash(n, key)
  let s1 = fraction(MASH_2, n)
  n = mash(n, key)
  let s2 = fraction(MASH_3, n)
  let c = 1
  return () => {
    const t = 2091639 * s0 + c * TWO_TO_MINUS_32
    s0 = s1
    s1 = s2
    return (s2 = t - (c = t | 0))
  }
}

/** The text that seeds a step's stream. Exposed so tools outside the engine can reproduce a draw. */
export function streamKey(seed: number, rollout: number, step: number): string {
  return `${seed}/${rollout}/${step}`
}

/**
 * A 31-bit integer derived from a step's stream key, for providers that take an integer `seed`
 * call option (the LLM adapters pass it on): same step, same seed, so seeded models replay exactly.
 */
export function providerSeed(seed: number, rollout: number, step: number): number {
  return hash32(streamKey(seed, rollout, step)) & 0x7fffffff
}

/** Derives a new run seed from a seed and a label, e.g. the replay seed of a recorded rollout. */
export function deriveSeed(seed: number, label: string): number {
  return hash32(`${seed}:${label}`) & 0x7fffffff
}

// FNV-1a followed by a murmur3 finalizer: fast, and good enough avalanche for seed derivation.
function hash32(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}
