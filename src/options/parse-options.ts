import type { z } from 'zod'
import { InvalidOptionError, type InvalidOption } from '../errors.js'
import { expectations } from './fields.js'
import { describeReceived } from './received.js'

type Schema = z.core.$ZodType
type Issue = z.core.$ZodIssue
type Path = readonly PropertyKey[]

const JITLESS = { jitless: true } as const

/**
 * Parses `value` with `schema` (a strict object of the options of `caller`) and returns the
 * resolved value, defaults filled in. Otherwise throws an {@link InvalidOptionError} for zod's
 * first issue: the option's dotted path, what it accepts (the words attached to its field, see
 * `expecting`), what it got, and for an unknown key the keys accepted at that level. `root` names
 * the whole value when it is itself wrong (`null` instead of an object).
 */
export function parseOptions<S extends z.ZodType>(
  caller: string,
  schema: S,
  value: unknown,
  root = 'options',
): z.output<S> {
  // Interpreted, not compiled: options are parsed once per call, so zod's compiled fast path (code
  // generated with new Function on an object schema's first parse) never pays itself back. With
  // the unparsed empty budget (see Budget), this halved resolving the options of a first
  // `contrastive` call in a fresh process (median 3.4 → 1.7 ms CPU).
  const result = schema.safeParse(value, JITLESS)
  if (result.success) return result.data
  const [first] = result.error.issues
  if (first === undefined) throw new InvalidOptionError(problem(caller, root, [], schema, value, undefined))
  throw new InvalidOptionError(describeIssue({ caller, root }, schema, value, first, []))
}

/**
 * The type of an options schema declared from a named shape: `z.ZodObject<typeof fields, strict>`.
 * Annotating a schema with it keeps the doc comments written on the shape's keys in the emitted
 * `.d.ts`, so `z.input<typeof Schema>` shows them in users' editors (an inferred schema type is
 * printed without them).
 */
export type StrictOptions<Shape extends z.core.$ZodLooseShape> = z.ZodObject<Shape, z.core.$strict>

/**
 * Compiles to `true` when a documented options interface and the schema that parses it agree: the
 * same keys, and every value the interface allows passes the schema's types. An interface keeps
 * its doc comments where users read them; this keeps it from drifting away from the schema:
 * `const _same: DescribesSchema<RolloutOptions, typeof RolloutOptionsSchema> = true`.
 */
export type DescribesSchema<Options, S extends z.ZodType> = [keyof Options] extends [keyof z.input<S>]
  ? [keyof z.input<S>] extends [keyof Options]
    ? Options extends z.input<S>
      ? true
      : false
    : false
  : false

interface Naming {
  caller: string
  root: string
}

// `prefix` is the path from the parsed value to `schema` and `value` (non-empty inside a union).
function describeIssue(
  naming: Naming,
  schema: Schema,
  value: unknown,
  issue: Issue,
  prefix: Path,
): InvalidOption {
  const at = locate(schema, value, issue.path)
  const path = [...prefix, ...issue.path]
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? ''
    const shape = at.schema === undefined ? undefined : objectShape(at.schema, at.value)
    return {
      ...problem(
        naming.caller,
        naming.root,
        [...path, key],
        undefined,
        childOf(at.value, key),
        'a known option',
      ),
      accepted: Object.keys(shape ?? {}),
    }
  }
  if (issue.code === 'invalid_union') {
    // Report the branch the value is shaped for: an object gets the object branch's issue (a typo
    // inside `budget`), `null` or a number fits no branch and gets the union's own wording. Among
    // object branches, the one that knows most of the value's keys.
    const options = unionOptions(at.schema) ?? []
    let chosen: { schema: Schema; issue: Issue; fit: number } | undefined
    issue.errors.forEach((issues, index) => {
      const option = options[index]
      const first = issues[0]
      if (option === undefined || first === undefined || rejectsShape(first)) return
      const fit = keysKnown(option, at.value)
      if (chosen === undefined || fit > chosen.fit) chosen = { schema: option, issue: first, fit }
    })
    if (chosen !== undefined) return describeIssue(naming, chosen.schema, at.value, chosen.issue, path)
  }
  return problem(naming.caller, naming.root, path, at.schema, at.value, fallbackExpected(issue))
}

function problem(
  caller: string,
  root: string,
  path: Path,
  schema: Schema | undefined,
  value: unknown,
  fallback: string | undefined,
): InvalidOption {
  return {
    caller,
    option: path.length === 0 ? root : dotted(path),
    expected: (schema === undefined ? undefined : expectedOf(schema)) ?? fallback ?? 'a valid value',
    received: (schema === undefined ? undefined : receivedOf(schema, value)) ?? describeReceived(value),
  }
}

// A union branch whose first issue is about the value's type, at the branch's own root, is a branch
// for another kind of value; any other issue (a bound, an unknown key, a nested field) means the
// value has this branch's shape.
function rejectsShape(issue: Issue): boolean {
  return (
    issue.path.length === 0 &&
    (issue.code === 'invalid_type' ||
      issue.code === 'invalid_value' ||
      issue.code === 'custom' ||
      issue.code === 'invalid_union')
  )
}

/** The schema and the value at `path` below `schema` and `value`. */
function locate(schema: Schema, value: unknown, path: Path): { schema: Schema | undefined; value: unknown } {
  let current: Schema | undefined = schema
  let currentValue = value
  for (const key of path) {
    current = current === undefined ? undefined : childSchema(current, currentValue, key)
    currentValue = childOf(currentValue, key)
  }
  return { schema: current, value: currentValue }
}

function childSchema(schema: Schema, value: unknown, key: PropertyKey): Schema | undefined {
  if (typeof key === 'number') {
    for (let current: Schema | undefined = schema; current !== undefined; current = unwrap(current)) {
      if (current._zod.def.type === 'array') return (current._zod.def as z.core.$ZodArrayDef).element
    }
    return undefined
  }
  return objectShape(schema, value, key)?.[String(key)]
}

function childOf(value: unknown, key: PropertyKey): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<PropertyKey, unknown>)[key]
    : undefined
}

/**
 * The shape of the object `schema` parses, through wrappers (`.optional()`, `.default()`, …) and
 * unions: the object branch that has `key` and most of the keys of `value`, the value it parses.
 */
function objectShape(schema: Schema, value: unknown, key?: PropertyKey): Record<string, Schema> | undefined {
  const def = schema._zod.def
  if (def.type === 'object') return (def as z.core.$ZodObjectDef).shape
  const options = unionOptions(schema)
  if (options !== undefined) {
    const shapes = options.flatMap((option) => {
      const shape = objectShape(option, value, key)
      return shape === undefined ? [] : [{ shape, known: keysKnown(option, value) }]
    })
    const withKey = shapes.filter(({ shape }) => key !== undefined && Object.hasOwn(shape, key))
    const candidates = withKey.length > 0 ? withKey : shapes
    // The first of the best: a tie goes to the branch listed first, as zod tries them.
    return candidates.reduce<(typeof shapes)[number] | undefined>(
      (best, candidate) => (best === undefined || candidate.known > best.known ? candidate : best),
      undefined,
    )?.shape
  }
  const inner = unwrap(schema)
  return inner === undefined ? undefined : objectShape(inner, value, key)
}

/** How many keys of `value` the object `schema` parses knows (0 for a schema of no object). */
function keysKnown(schema: Schema, value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  const shape = objectShape(schema, value)
  return shape === undefined ? 0 : Object.keys(value).filter((key) => Object.hasOwn(shape, key)).length
}

function unionOptions(schema: Schema | undefined): readonly Schema[] | undefined {
  for (let current = schema; current !== undefined; current = unwrap(current)) {
    if (current._zod.def.type === 'union') return (current._zod.def as z.core.$ZodUnionDef).options
  }
  return undefined
}

/** The schema one wrapper down, or undefined for a schema that wraps nothing. */
function unwrap(schema: Schema): Schema | undefined {
  const def = schema._zod.def
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return (def as z.core.$ZodOptionalDef).innerType
    case 'pipe':
      // `.transform()` pipes the checked input into the transform: the input side says what is accepted.
      return (def as z.core.$ZodPipeDef).in
    case 'lazy':
      return (def as z.core.$ZodLazyDef).getter()
    default:
      return undefined
  }
}

/** How `schema`'s field shows a refused value, when it has a way of its own (see `expecting`). */
function receivedOf(schema: Schema, value: unknown): string | undefined {
  for (let current: Schema | undefined = schema; current !== undefined; current = unwrap(current)) {
    const describe = expectations.get(current)?.describeReceived
    if (describe !== undefined) return describe(value)
  }
  return undefined
}

/**
 * The words attached to `schema` or to the schema it wraps (see `expecting`); for a union without
 * words of its own, its branches' words (`false or an object`).
 */
function expectedOf(schema: Schema): string | undefined {
  for (let current: Schema | undefined = schema; current !== undefined; current = unwrap(current)) {
    const expected = expectations.get(current)?.expected
    if (expected !== undefined) return expected
    const def = current._zod.def
    if (def.type === 'union') {
      const words = (def as z.core.$ZodUnionDef).options.map(expectedOf)
      return words.every((word) => word !== undefined) ? words.join(' or ') : undefined
    }
    if (def.type === 'literal') {
      const values = (def as z.core.$ZodLiteralDef<z.core.util.Literal>).values
      return values
        .map((literal) => (typeof literal === 'string' ? `'${literal}'` : String(literal)))
        .join(' or ')
    }
    if (def.type === 'object') return 'an object'
  }
  return undefined
}

// For a field without attached words (a bug to fix there, not a crash).
function fallbackExpected(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return `${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`
    case 'invalid_value':
      return issue.values.map((value) => JSON.stringify(value)).join(' or ')
    case 'too_small':
      return `${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}`
    case 'too_big':
      return `${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}`
    default:
      return undefined
  }
}

/** `budget.maxRollouts`; an array index reads `steps[2]`. */
function dotted(path: Path): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('')
}
