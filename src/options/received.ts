/**
 * A short description of a value that an option or argument did not accept, for messages: `null`,
 * `-1`, `1n`, `a symbol (id)`, `a string "5"`, `an array`, `a function (run)`,
 * `an object with keys {maxRolouts}`, `a Date`. It never throws and never serializes the value, so a
 * BigInt, a circular object or a Proxy is described like anything else.
 */
export function describeReceived(value: unknown): string {
  if (value === null || value === undefined || typeof value === 'boolean') return String(value)
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value)
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'string') return `a string ${JSON.stringify(shorten(value))}`
  if (typeof value === 'symbol')
    return value.description ? `a symbol (${shorten(value.description)})` : 'a symbol'
  if (typeof value === 'function') return `a function${value.name ? ` (${value.name})` : ''}`
  if (Array.isArray(value)) return 'an array'
  // A message must never fail to print: a Proxy or a throwing getter is just "an object".
  try {
    return describeObject(value)
  } catch {
    return 'an object'
  }
}

// Names keys and classes only, so a circular or huge object describes as cheaply as a small one.
function describeObject(value: object): string {
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype === Object.prototype || prototype === null) {
    const keys = Object.keys(value)
    if (keys.length === 0) return 'an empty object'
    const shown = keys.slice(0, MAX_KEYS).join(', ')
    return `an object with keys {${shown}${keys.length > MAX_KEYS ? ', …' : ''}}`
  }
  const className = (value as { constructor?: { name?: unknown } }).constructor?.name
  return typeof className === 'string' && className !== ''
    ? `${/^[AEIOU]/.test(className) ? 'an' : 'a'} ${className}`
    : 'an object'
}

// A message names the value, it does not reprint it: long strings and many keys are cut.
const MAX_STRING = 40
const MAX_KEYS = 5

function shorten(text: string): string {
  return text.length <= MAX_STRING ? text : `${text.slice(0, MAX_STRING - 1)}…`
}
