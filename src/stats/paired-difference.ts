import type { Interval } from './estimate.js'
import { logEValueBelow, pairedConfidenceSequence } from './paired-confidence-sequence.js'
import { pairedCells, type PairedCells, type PairedTable } from './tango.js'
import {
  pairedCorrectedScoreTestOneSided,
  TANGO_CONTINUITY_CORRECTION,
  tangoCorrected,
} from './tango-corrected.js'
import { assertConfidence } from './validate.js'

/**
 * The share of discordant pairs from which {@link pairedDifference} leaves Tango's score interval
 * for the paired confidence sequence: 9/10.
 *
 * Why: the score interval leans on a normal approximation of n12 − n21 whose variance it estimates
 * from the table; when nearly every pair is discordant (pairs negatively correlated, as when one
 * shared draw rescues the bad decision in one arm and spoils the good one in the other) that
 * approximation is at its worst: over margins 2–98% and correlations −1…0 at K = 16…64 the
 * continuity-corrected interval's exact coverage falls to 94.0% (two-sided 95%) and 88.5% (90%),
 * and its one-sided 95% test's size rises to 5.77% (K = 20, every pair discordant, Δ = 0). The
 * confidence sequence holds at any correlation; used from 9/10 discordant pairs on, the pair keeps
 * ≥ 95.7% / ≥ 91.2% coverage and a size ≤ 4.3% on that grid
 * (test/unit/stats/paired-negative-correlation.test.ts enumerates it). The price is power where
 * pairs are mostly discordant and the effect is moderate (Δ = −0.3 with p12 = 0.3, K = 44: the rescue
 * test finds it 41% of the time instead of the score test's 65%, whose size is not honest there);
 * tables with fewer discordant pairs keep the shorter score interval.
 */
export const CONFIDENCE_SEQUENCE_DISCORDANT_SHARE = 0.9

/** Printed in the `intervals:` line of a fixed-sample paired attribution. */
export const PAIRED_DIFFERENCE_METHOD = `Tango score interval with continuity correction ½, or the paired betting confidence sequence where ≥ ${CONFIDENCE_SEQUENCE_DISCORDANT_SHARE * 100}% of pairs are discordant`

/**
 * The fixed-sample interval for a paired difference Δ = (n12 − n21) / N that holds at every
 * correlation between the pairs: {@link tangoCorrected} when fewer than
 * {@link CONFIDENCE_SEQUENCE_DISCORDANT_SHARE} of the pairs are discordant, else the paired
 * confidence sequence ({@link pairedConfidenceSequence}, valid for any joint law of the pair). The
 * interval's `method` names the one used. `confidence` defaults to 0.95.
 */
export function pairedDifference(table: PairedTable, confidence = 0.95): Interval {
  assertConfidence('pairedDifference', confidence)
  const cells = pairedCells('pairedDifference', table)
  return mostlyDiscordant(cells)
    ? pairedConfidenceSequence(countsOf(cells), confidence)
    : tangoCorrected(table, confidence, TANGO_CONTINUITY_CORRECTION)
}

/**
 * One-sided p-value for H0: Δ ≥ 0 against H1: Δ < 0 that {@link pairedDifference} inverts: it is at
 * most α exactly when the two-sided (1 − 2α) interval's upper end lies below 0. The corrected score
 * test below {@link CONFIDENCE_SEQUENCE_DISCORDANT_SHARE} discordant pairs, 1 / (the paired betting
 * e-value against Δ ≥ 0) from there on (a valid p-value by Markov's inequality).
 */
export function pairedDifferenceTestOneSided(table: PairedTable): number {
  const cells = pairedCells('pairedDifferenceTestOneSided', table)
  if (!mostlyDiscordant(cells)) return pairedCorrectedScoreTestOneSided(table)
  return Math.min(1, Math.exp(-logEValueBelow(countsOf(cells), 0)))
}

function mostlyDiscordant(cells: PairedCells): boolean {
  return cells.total > 0 && cells.n12 + cells.n21 >= CONFIDENCE_SEQUENCE_DISCORDANT_SHARE * cells.total
}

function countsOf(cells: PairedCells): { worse: number; better: number; same: number } {
  return { worse: cells.n12, better: cells.n21, same: cells.total - cells.n12 - cells.n21 }
}
