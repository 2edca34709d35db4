import { NotJsonError } from '../../errors.js'
import { setJsonKey, type Json, type JsonObject } from '../../json.js'

/**
 * The key that marks an encoded non-JSON value, e.g. `{ "$cr": "Date", "value": "2025-…" }`. A
 * plain object that happens to own this key is escaped as `{ "$cr": "object", "value": {…} }`, so
 * decoding never mistakes user data for a tag.
 */
export const CODEC_TAG = '$cr'

/**
 * A class whose instances are recorded as their own enumerable fields and revived with the class's
 * prototype (no constructor call), so `instanceof` and methods work again after a JSON round trip.
 * Only for plain data classes (no private `#fields`), e.g. the Agents SDK's `Usage`.
 */
export interface ClassCodec {
  /** The name recorded in the tag; must be unique among the codecs of one adapter. */
  readonly name: string
  /** The class itself. */
  readonly ctor: abstract new (...args: never[]) => object
}

/** Options of {@link encodeJson} and {@link decodeJson}. */
export interface CodecOptions {
  /** Default: none. Data classes to revive by prototype (see {@link ClassCodec}). */
  readonly classes?: readonly ClassCodec[]
}

const TYPED_ARRAYS = {
  Int8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const
type TypedArrayName = keyof typeof TYPED_ARRAYS

/**
 * Encodes an SDK value (a model result, a stream part, a prompt) as JSON that {@link decodeJson}
 * turns back into an equal value: `Date`, `Uint8Array` (base64), other typed arrays, `ArrayBuffer`,
 * `URL`, `Error` (name, message and own fields), `Map`, `Set`, `bigint`, non-finite numbers,
 * `undefined` array items and the registered classes survive; an object with a `toJSON` method is
 * recorded as what `toJSON` returns (JSON.stringify's own rule) and comes back as that. Object
 * fields that are `undefined` are dropped, as JSON.stringify drops them.
 *
 * Anything else (a function, a symbol, a cycle, an instance of an unregistered class without
 * `toJSON`) throws a {@link NotJsonError} naming `where` and the path: recording it would hand
 * replay something else than the live run saw.
 */
export function encodeJson(value: unknown, where: string, options: CodecOptions = {}): Json {
  return new Encoder(where, options.classes ?? []).encode(value, '')
}

/** Revives what {@link encodeJson} produced. An unknown tag throws a {@link NotJsonError}. */
export function decodeJson(json: Json, options: CodecOptions = {}): unknown {
  return decode(json, '', options.classes ?? [])
}

/** One {@link encodeJson} call: what it names in errors, the classes it revives, the objects on the path. */
class Encoder {
  private readonly seen = new Set<object>()

  constructor(
    private readonly where: string,
    private readonly classes: readonly ClassCodec[],
  ) {}

  encode(value: unknown, path: string): Json {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value
      case 'number':
        return Number.isFinite(value) ? value : { [CODEC_TAG]: 'number', value: String(value) }
      case 'bigint':
        return { [CODEC_TAG]: 'bigint', value: value.toString() }
      case 'undefined':
        return { [CODEC_TAG]: 'undefined' }
      case 'object':
        break
      default:
        throw new NotJsonError(`${this.where} cannot be recorded: a ${typeof value}${at(path)}.`)
    }
    if (value === null) return null
    if (this.seen.has(value)) {
      throw new NotJsonError(`${this.where} cannot be recorded: a circular reference${at(path)}.`)
    }
    this.seen.add(value)
    try {
      return this.encodeObject(value, path)
    } finally {
      this.seen.delete(value)
    }
  }

  private encodeObject(value: object, path: string): Json {
    const inner = (item: unknown, key: string) => this.encode(item, `${path}${key}`)
    if (Array.isArray(value)) return value.map((item, i) => inner(item, `[${i}]`))
    const registered = this.classes.find((codec) => value instanceof codec.ctor)
    if (registered !== undefined) {
      return { [CODEC_TAG]: 'class', name: registered.name, value: this.encodeFields(value, path) }
    }
    if (value instanceof Date) {
      return { [CODEC_TAG]: 'Date', value: Number.isNaN(value.getTime()) ? null : value.toISOString() }
    }
    if (value instanceof Uint8Array && !(value instanceof Uint8ClampedArray)) {
      return {
        [CODEC_TAG]: 'Uint8Array',
        base64: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'),
      }
    }
    if (value instanceof ArrayBuffer) {
      return { [CODEC_TAG]: 'ArrayBuffer', base64: Buffer.from(value).toString('base64') }
    }
    if (ArrayBuffer.isView(value)) {
      const name = value.constructor.name
      if (name in TYPED_ARRAYS) {
        const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
        return { [CODEC_TAG]: 'TypedArray', type: name, base64: bytes.toString('base64') }
      }
    }
    if (value instanceof URL) return { [CODEC_TAG]: 'URL', href: value.href }
    if (value instanceof Map) {
      return {
        [CODEC_TAG]: 'Map',
        entries: [...value].map(([k, v], i) => [inner(k, `<key ${i}>`), inner(v, `<value ${i}>`)]),
      }
    }
    if (value instanceof Set)
      return { [CODEC_TAG]: 'Set', values: [...value].map((item, i) => inner(item, `<item ${i}>`)) }
    if (value instanceof Error) {
      const encoded: JsonObject = { [CODEC_TAG]: 'Error', name: value.name, message: value.message }
      const fields = this.encodeFields(value, path)
      if (Object.keys(fields).length > 0) encoded.fields = fields
      if (value.cause !== undefined) encoded.cause = inner(value.cause, '.cause')
      return encoded
    }
    const toJSON = (value as { toJSON?: unknown }).toJSON
    if (typeof toJSON === 'function') return inner(toJSON.call(value), '')
    const proto = Object.getPrototypeOf(value) as unknown
    if (proto === Object.prototype || proto === null) {
      const fields = this.encodeFields(value, path)
      return Object.hasOwn(value, CODEC_TAG) ? { [CODEC_TAG]: 'object', value: fields } : fields
    }
    const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object'
    throw new NotJsonError(
      `${this.where} cannot be recorded: an instance of ${kind}${at(path)}, which a JSON recording cannot revive ` +
        `(Date, typed arrays, URL, Error, Map, Set and plain objects can; convert it to plain data).`,
    )
  }

  /** Own enumerable string-keyed fields; undefined fields are dropped as JSON.stringify drops them. */
  private encodeFields(value: object, path: string): JsonObject {
    const fields: JsonObject = {}
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue
      setJsonKey(fields, key, this.encode(item, `${path}.${key}`))
    }
    return fields
  }
}

function decode(json: Json, path: string, classes: readonly ClassCodec[]): unknown {
  if (json === null || typeof json !== 'object') return json
  if (Array.isArray(json)) return json.map((item, i) => decode(item, `${path}[${i}]`, classes))
  const tag = json[CODEC_TAG]
  if (tag === undefined) return decodeFields(json, path, classes)
  switch (tag) {
    case 'object':
      return decodeFields(objectField(json, 'value', path), path, classes)
    case 'undefined':
      return undefined
    case 'number':
      return Number(stringField(json, 'value', path))
    case 'bigint':
      return BigInt(stringField(json, 'value', path))
    case 'Date':
      return json.value === null ? new Date(Number.NaN) : new Date(stringField(json, 'value', path))
    case 'Uint8Array':
      return new Uint8Array(Buffer.from(stringField(json, 'base64', path), 'base64'))
    case 'ArrayBuffer': {
      const bytes = Buffer.from(stringField(json, 'base64', path), 'base64')
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
    }
    case 'TypedArray': {
      const type = stringField(json, 'type', path)
      if (!(type in TYPED_ARRAYS)) throw badTag(`unknown typed array "${type}"`, path)
      const bytes = new Uint8Array(Buffer.from(stringField(json, 'base64', path), 'base64'))
      return new TYPED_ARRAYS[type as TypedArrayName](bytes.buffer)
    }
    case 'URL':
      return new URL(stringField(json, 'href', path))
    case 'Map':
      return new Map(
        arrayField(json, 'entries', path).map((entry, i) => {
          if (!Array.isArray(entry) || entry.length !== 2)
            throw badTag('a Map entry is not a [key, value] pair', path)
          return [
            decode(entry[0] as Json, `${path}<key ${i}>`, classes),
            decode(entry[1] as Json, `${path}<value ${i}>`, classes),
          ]
        }),
      )
    case 'Set':
      return new Set(
        arrayField(json, 'values', path).map((item, i) => decode(item, `${path}<item ${i}>`, classes)),
      )
    case 'Error': {
      const error = new Error(stringField(json, 'message', path))
      error.name = stringField(json, 'name', path)
      if (json.fields !== undefined)
        assignFields(error, decodeFields(objectField(json, 'fields', path), path, classes))
      if (json.cause !== undefined) error.cause = decode(json.cause, `${path}.cause`, classes)
      return error
    }
    case 'class': {
      const name = stringField(json, 'name', path)
      const codec = classes.find((candidate) => candidate.name === name)
      if (codec === undefined) throw badTag(`no class "${name}" is registered to revive it`, path)
      return assignFields(
        Object.create(codec.ctor.prototype) as object,
        decodeFields(objectField(json, 'value', path), path, classes),
      )
    }
    default:
      throw badTag(`unknown tag ${JSON.stringify(tag)}`, path)
  }
}

function decodeFields(
  json: JsonObject,
  path: string,
  classes: readonly ClassCodec[],
): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(json))
    setJsonKey(fields, key, decode(item, `${path}.${key}`, classes))
  return fields
}

/**
 * `Object.assign` by definition rather than assignment: a field named `"__proto__"` stays a field
 * instead of replacing the revived object's prototype.
 */
function assignFields<T extends object>(target: T, fields: Record<string, unknown>): T {
  return Object.defineProperties(target, Object.getOwnPropertyDescriptors(fields))
}

function stringField(json: JsonObject, key: string, path: string): string {
  const value = json[key]
  if (typeof value !== 'string') throw badTag(`field "${key}" must be a string`, path)
  return value
}

function objectField(json: JsonObject, key: string, path: string): JsonObject {
  const value = json[key]
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badTag(`field "${key}" must be an object`, path)
  return value
}

function arrayField(json: JsonObject, key: string, path: string): Json[] {
  const value = json[key]
  if (!Array.isArray(value)) throw badTag(`field "${key}" must be an array`, path)
  return value
}

function badTag(problem: string, path: string): NotJsonError {
  return new NotJsonError(
    `A recorded value cannot be revived${at(path)}: ${problem} (in a "${CODEC_TAG}" tag).`,
  )
}

function at(path: string): string {
  return path === '' ? '' : ` at ${path}`
}
