import { createHash } from 'node:crypto'
import { NotJsonError } from './errors.js'

/** A JSON value: what actions, contexts, tool results, inputs and outputs must be. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
/** A JSON object. */
export type JsonObject = { [key: string]: Json }

/**
 * Throws a {@link NotJsonError} naming `where` and the path inside the value when `value` is not a
 * JSON value (undefined, a function, a class instance, NaN, a cycle, …). Recorded values must
 * survive a JSON round trip unchanged, or replay would hand the agent something else.
 */
export function assertJson(value: unknown, where: string): asserts value is Json {
  const problem = findNonJson(value, '', new Set())
  if (problem !== undefined) throw new NotJsonError(`${where} is not a JSON value: ${problem}.`)
}

function findNonJson(value: unknown, path: string, seen: Set<object>): string | undefined {
  const at = path === '' ? '' : ` at ${path}`
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined
    case 'number':
      return Number.isFinite(value) ? undefined : `${value} is not a finite number${at}`
    case 'object': {
      if (value === null) return undefined
      if (seen.has(value)) return `circular reference${at}`
      seen.add(value)
      try {
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const problem = findNonJson(value[i], `${path}[${i}]`, seen)
            if (problem !== undefined) return problem
          }
          return undefined
        }
        const proto = Object.getPrototypeOf(value) as unknown
        if (proto !== Object.prototype && proto !== null) {
          const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object'
          return `a ${kind} instance${at} (convert it to plain JSON first)`
        }
        for (const key of Object.keys(value)) {
          const problem = findNonJson((value as Record<string, unknown>)[key], `${path}.${key}`, seen)
          if (problem !== undefined) return problem
        }
        return undefined
      } finally {
        seen.delete(value)
      }
    }
    default:
      return `${typeof value}${at}`
  }
}

/** JSON with object keys sorted, so equal values always give the same text (and digest). */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`).join(',')}}`
}

/**
 * Digest of a step's context: the first 16 hex digits of SHA-256 over its canonical JSON. Replay
 * compares digests, not contexts, so a recording stays small and the check stays cheap.
 */
export function contextDigest(context: Json): string {
  return createHash('sha256').update(canonicalJson(context)).digest('hex').slice(0, 16)
}
