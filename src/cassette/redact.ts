import { CausalReplayError, NotJsonError } from '../errors.js'
import { copyJson, nonJsonProblem, setJsonKey, type Json, type JsonObject } from '../json.js'

/**
 * What a value is, as a {@link CassetteRedactor} is told: the parts of a stored call (`request`,
 * `action`, `meta`, `tool-args`, `tool-result`), and a run's `input` and `output`, which only the
 * reports of a test that uses the cassette hold.
 */
export type CassettePart = 'request' | 'action' | 'meta' | 'tool-args' | 'tool-result' | 'input' | 'output'

/** A function that returns what to store of `value` (one part of a call) in place of it. */
export type CassetteRedactor = (value: Json, part: CassettePart) => Json

/**
 * What a cassette writes in place of secrets: a list of object keys whose values are replaced
 * wherever they occur (case-insensitive, at any depth, also inside strings that hold JSON, such as
 * a tool call's arguments), or a function applied to each part.
 */
export type CassetteRedact = readonly string[] | CassetteRedactor

/** What a redacted key's value is stored as. */
export const REDACTED = '[redacted]'

/**
 * The redaction `redact` describes as one function, or undefined for none. Keys are matched
 * case-insensitively: providers spell the same header `Authorization` and `authorization`. A
 * function is called on a copy (it may change what it is given), and what it throws or returns
 * that is not JSON is an error that names `redact`.
 */
export function redactorOf(redact: CassetteRedact | undefined): CassetteRedactor | undefined {
  if (redact === undefined) return undefined
  if (typeof redact === 'function') return checkedRedactor(redact)
  if (redact.length === 0) return undefined
  const keys = new Set(redact.map((key) => key.toLowerCase()))
  return (value) => redactKeys(value, keys)
}

function checkedRedactor(redact: CassetteRedactor): CassetteRedactor {
  return (value, part) => {
    let returned: unknown
    try {
      returned = redact(copyJson(value, `The ${part} given to redact`), part)
    } catch (error) {
      throw new CausalReplayError(
        `redact threw on a ${part}: ${error instanceof Error ? error.message : String(error)}. Nothing was written with it; fix the redact function.`,
        { cause: error },
      )
    }
    const problem = nonJsonProblem(returned)
    if (problem !== undefined) {
      throw new NotJsonError(
        `redact returned ${problem} for a ${part}, which is not a JSON value. Nothing was written with it; return the JSON value to write in its place (the value itself to keep it).`,
      )
    }
    return returned as Json
  }
}

/**
 * `value` with the values of `keys` replaced by {@link REDACTED}. What holds no such key is
 * returned as it is (the same object), so a caller tells a changed value by identity, and a large
 * value without secrets is not copied.
 */
function redactKeys(value: Json, keys: ReadonlySet<string>): Json {
  if (typeof value === 'string') return redactJsonText(value, keys)
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let changed: Json[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as Json
      const redacted = redactKeys(item, keys)
      if (redacted === item) continue
      changed ??= value.slice()
      changed[i] = redacted
    }
    return changed ?? value
  }
  let changed: JsonObject | undefined
  for (const key of Object.keys(value)) {
    const item = value[key] as Json
    const redacted = keys.has(key.toLowerCase()) ? REDACTED : redactKeys(item, keys)
    if (redacted === item) continue
    // A spread defines its fields, so a "__proto__" key stays a field of the copy.
    changed ??= { ...value }
    setJsonKey(changed, key, redacted)
  }
  return changed ?? value
}

/**
 * A string that holds a JSON object or array (a tool call's arguments, as the AI SDK, the Agents
 * SDK and OpenAI's wire format send them) with the keys inside redacted, written back as JSON; any
 * other string, or one without such a key, as it is.
 */
function redactJsonText(text: string, keys: ReadonlySet<string>): string {
  const first = text.match(/^\s*([[{])/)?.[1]
  if (first === undefined) return text
  let parsed: Json
  try {
    parsed = JSON.parse(text) as Json
  } catch {
    return text
  }
  const redacted = redactKeys(parsed, keys)
  return redacted === parsed ? text : JSON.stringify(redacted)
}
