/**
 * True when `value` has a `then` method: what `await` would wait for. The engine's fast paths take
 * a synchronous answer (a policy's action, a predicate's verdict) without a promise, and wait only
 * for one of these.
 */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}
