/**
 * Runs `compute` once, when first awaited, and hands every caller the same promise: a seeded
 * simulation that several tests of a file check, each on its own claim, is paid for once whichever
 * of them runs first (or alone, under a name filter).
 */
export function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined
  return () => (result ??= compute())
}
