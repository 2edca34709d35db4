/**
 * An asymmetric matcher as Vitest and Jest make them (`expect.objectContaining(…)`,
 * `expect.any(Number)`, `expect.stringMatching(/…/)`): any object with an `asymmetricMatch`
 * method. Recognised by that method, as Jest's own `equals` does, so this layer needs no Vitest at
 * run time and any library's matcher of that shape works.
 */
export interface AsymmetricMatcherLike {
  asymmetricMatch(other: unknown): boolean
  toString(): string
  toAsymmetricMatcher?(): string
}

/** True when `value` is an {@link AsymmetricMatcherLike}. */
export function isAsymmetricMatcher(value: unknown): value is AsymmetricMatcherLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  )
}

/**
 * True when `actual` equals `expected` as Vitest's `toEqual` compares JSON values: arrays element by
 * element, objects key by key (the same own keys), primitives by `===` with NaN equal to NaN (0 and −0
 * are equal: a recorded JSON value has no −0). An asymmetric matcher anywhere in `expected` decides its place itself, so
 * `{ amount: expect.any(Number) }` matches `{ amount: 99 }`.
 */
export function matchesValue(actual: unknown, expected: unknown): boolean {
  if (isAsymmetricMatcher(expected)) return expected.asymmetricMatch(actual)
  if (typeof expected !== 'object' || expected === null) {
    return actual === expected || (Number.isNaN(actual) && Number.isNaN(expected))
  }
  if (typeof actual !== 'object' || actual === null) return false
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => matchesValue(actual[index], item))
    )
  }
  if (Array.isArray(actual)) return false
  const actualRecord = actual as Record<string, unknown>
  const expectedRecord = expected as Record<string, unknown>
  const expectedKeys = Object.keys(expectedRecord)
  const actualKeys = Object.keys(actualRecord)
  // A key whose expected value is `undefined` matches a missing key, as in `toEqual`.
  const present = (record: Record<string, unknown>, key: string) => record[key] !== undefined
  return (
    actualKeys
      .filter((key) => present(actualRecord, key))
      .every((key) => Object.hasOwn(expectedRecord, key)) &&
    expectedKeys.every((key) => matchesValue(actualRecord[key], expectedRecord[key]))
  )
}

/**
 * A short rendering of an expected value for a predicate's label: JSON, with an asymmetric matcher
 * shown as Vitest prints it (`ObjectContaining {"amount": 99}`, `Any<Number>`), cut at `limit`
 * characters on a whole token.
 */
export function describeExpected(expected: unknown, limit = 60): string {
  const text = render(expected)
  if (text.length <= limit) return text
  const cut = text.slice(0, limit - 1)
  const lastBreak = Math.max(cut.lastIndexOf(','), cut.lastIndexOf(' '))
  return `${lastBreak > limit / 2 ? cut.slice(0, lastBreak) : cut}…`
}

function render(value: unknown): string {
  if (isAsymmetricMatcher(value)) {
    const text = value.toAsymmetricMatcher?.() ?? value.toString()
    // Vitest's `toString` names the kind only; its `sample` says what it holds.
    const sample = (value as { sample?: unknown }).sample
    return value.toAsymmetricMatcher === undefined && sample !== undefined
      ? `${text} ${render(sample)}`
      : text
  }
  if (value instanceof RegExp) return String(value)
  if (Array.isArray(value)) return `[${value.map(render).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([key, item]) => `${JSON.stringify(key)}: ${render(item)}`,
    )
    return `{${entries.join(', ')}}`
  }
  if (typeof value === 'function') return value.name === '' ? 'a function' : value.name
  if (value === undefined) return 'undefined'
  return JSON.stringify(value) ?? String(value)
}
