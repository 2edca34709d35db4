import { hash } from 'node:crypto'
import { NotJsonError } from './errors.js'

/** A JSON value: what actions, contexts, tool results, inputs and outputs must be. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
/** A JSON object. */
export type JsonObject = { [key: string]: Json }

/**
 * Throws a {@link NotJsonError} naming `where` and the path inside the value when `value` is not a
 * JSON value (undefined, a function, a class instance, NaN, a cycle, …) or nests deeper than
 * {@link MAX_JSON_DEPTH}. Recorded values must survive a JSON round trip unchanged, or replay would
 * hand the agent something else.
 */
export function assertJson(value: unknown, where: string): asserts value is Json {
  // Most recorded values are primitives: settle them without allocating the cycle set.
  if (isJsonPrimitive(value)) return
  const problem = findNonJson(value, '', new Set(), 1)
  if (problem === undefined) return
  if (typeof problem === 'string') throw new NotJsonError(`${where} is not a JSON value: ${problem}.`)
  throw new NotJsonError(
    `${where} is nested too deeply: ${tooDeepText(problem.deeperAt)}. A recorded value is copied, ` +
      `digested and shown by code that descends it one level at a time: flatten it, or record a ` +
      `summary of it instead.`,
  )
}

/**
 * How many levels of arrays and objects a recorded value may nest. The walks over recorded values
 * (copy, digest, cassette keys, reports) recurse once per level; far past this depth they overflow
 * the stack, which would end the rollout with a bare "Maximum call stack size exceeded" naming
 * nothing. JSON that agents and models exchange nests a few dozen levels at most.
 */
export const MAX_JSON_DEPTH = 1000

/** "more than 1000 levels of arrays and objects, below .a.a.a…". */
function tooDeepText(path: string): string {
  // The start of a long path is enough to recognise where the value nests.
  const start = path.length <= 60 ? path : `${path.slice(0, 60)}…`
  return `more than ${MAX_JSON_DEPTH} levels of arrays and objects, below ${start}`
}

/** True for null, a boolean, a string or a finite number: JSON values that need no copy. */
export function isJsonPrimitive(value: unknown): value is null | boolean | number | string {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  )
}

/**
 * A deep copy of a JSON value, checked on the way (a {@link NotJsonError} naming `where` and the
 * path otherwise). The engine records copies because agents keep mutating what they pass in (a
 * message list that grows after each step) and must not mutate what the engine hands out (a held
 * action shared by every replayed rollout).
 */
export function copyJson(value: unknown, where: string): Json {
  if (isJsonPrimitive(value)) return value
  const copy = copyStructure(value, 0)
  if (copy !== NOT_JSON) return copy
  assertJson(value, where)
  // Valid but deeper than the copier's recursion guard (and at most MAX_JSON_DEPTH): let the
  // platform copy it.
  return structuredClone(value)
}

const NOT_JSON = Symbol('not JSON')
// Past this depth the value is probably cyclic; the slow path tells a cycle from a deep value.
const MAX_COPY_DEPTH = 256

function copyStructure(value: unknown, depth: number): Json | typeof NOT_JSON {
  if (isJsonPrimitive(value)) return value
  if (typeof value !== 'object' || depth > MAX_COPY_DEPTH) return NOT_JSON
  if (Array.isArray(value)) {
    const copy: Json[] = new Array(value.length)
    for (let i = 0; i < value.length; i++) {
      const item = copyStructure(value[i], depth + 1)
      if (item === NOT_JSON) return NOT_JSON
      copy[i] = item
    }
    return copy
  }
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return NOT_JSON
  const copy: { [key: string]: Json } = {}
  for (const key of Object.keys(value)) {
    const item = copyStructure((value as Record<string, unknown>)[key], depth + 1)
    if (item === NOT_JSON) return NOT_JSON
    setJsonKey(copy, key, item)
  }
  return copy
}

/**
 * Sets `object[key] = value` as an own, enumerable field, whatever the key: a `"__proto__"` key is
 * data in JSON, and plain assignment would set the object's prototype instead (losing the key, and
 * letting the value's fields show through every lookup on the object).
 */
export function setJsonKey<T>(object: { [key: string]: T }, key: string, value: T): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
  else object[key] = value
}

/**
 * What makes `value` not a JSON value (`"undefined at .a[2]"`, `"circular reference at .b"`, or
 * nesting past {@link MAX_JSON_DEPTH}), or undefined when it is one.
 */
export function nonJsonProblem(value: unknown): string | undefined {
  // Most recorded values are primitives: settle them without allocating the cycle set.
  if (isJsonPrimitive(value)) return undefined
  const problem = findNonJson(value, '', new Set(), 1)
  return problem === undefined || typeof problem === 'string' ? problem : tooDeepText(problem.deeperAt)
}

/**
 * What makes `value` not a recordable JSON value: a string saying what and where, or the path of a
 * container nested past {@link MAX_JSON_DEPTH} (`depth` is the level `value` is at, from 1).
 */
function findNonJson(
  value: unknown,
  path: string,
  seen: Set<object>,
  depth: number,
): string | { deeperAt: string } | undefined {
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
      if (depth > MAX_JSON_DEPTH) return { deeperAt: path }
      seen.add(value)
      try {
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const problem = findNonJson(value[i], `${path}[${i}]`, seen, depth + 1)
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
          const problem = findNonJson(
            (value as Record<string, unknown>)[key],
            `${path}.${key}`,
            seen,
            depth + 1,
          )
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
  // Loops and string appends rather than map/join: this runs on every step that has a context.
  if (Array.isArray(value)) {
    let text = '['
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + canonicalJson(value[i] as Json)
    return `${text}]`
  }
  const keys = Object.keys(value).sort()
  let text = '{'
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string
    text += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`
  }
  return `${text}}`
}

/**
 * Digest of a step's context: the first 16 hex digits of SHA-256 over its canonical JSON. Replay
 * compares digests, not contexts, so a recording stays small and the check stays cheap.
 */
export function contextDigest(context: Json): string {
  // One-shot `hash` is about 2–3× faster than createHash().update().digest() on short inputs.
  return hash('sha256', canonicalJson(context), 'hex').slice(0, 16)
}
