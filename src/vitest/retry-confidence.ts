import { confidenceLevel } from '../text/numbers.js'

/**
 * The call's options with the confidence split over a retried test's attempts (Bonferroni): each
 * attempt runs at 1 − (1 − confidence) / attempts, so the chance that any attempt gives a wrong
 * verdict — and a retry turns one wrong pass into the test's pass — stays within 1 − confidence.
 * Why split rather than refuse: `retry` is often set for a whole project (flaky network, a slow
 * model), and a rate assertion among such tests should still run, at an honest level. Options
 * that are not an object, or a confidence that is not a number, are left for the claim's schema
 * to report. `note` says so under the verdict's message; null when nothing was split.
 */
export function splitConfidence(
  call: object,
  confidence: number,
  attempts: number,
): { options: object; note: string | null } {
  if (attempts === 1 || typeof call !== 'object' || call === null || Array.isArray(call)) {
    return { options: call, note: null }
  }
  const given = (call as { confidence?: unknown }).confidence
  if (given !== undefined && (typeof given !== 'number' || !(given > 0 && given < 1))) {
    return { options: call, note: null }
  }
  const family = given ?? confidence
  const perAttempt = 1 - (1 - family) / attempts
  const note = `retry: ${attempts - 1} lets this test run ${attempts} times, so each attempt's verdict is at ${confidenceLevel(perAttempt)} confidence (Bonferroni): a wrong verdict on any attempt stays within ${confidenceLevel(1 - family)}, as at ${confidenceLevel(family)} without retries`
  return { options: { ...call, confidence: perAttempt }, note }
}
