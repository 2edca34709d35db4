import { z } from 'zod'
import { InvalidOptionError } from '../errors.js'
import { expecting } from '../options/fields.js'
import { parseOptions, type StrictOptions } from '../options/parse-options.js'
import { describeReceived } from '../options/received.js'
import { describeExpected, matchesValue } from './match-value.js'
import { allObservations, type AnyTrajectory, type TrajectoryPredicate } from './queries.js'
import type { Observation } from './schema.js'

/**
 * One expected tool call: a tool name, or `{ name, args }` where `args` is compared as
 * `toEqual` compares (asymmetric matchers such as `expect.objectContaining` allowed).
 */
export type ToolCallPattern = string | { readonly name: string; readonly args?: unknown }

/**
 * How {@link calledTools} compares the run's tool calls (preamble first, in call order) with the
 * expected list. Each call counts once: a tool listed twice needs two calls.
 * - `strict`: exactly these calls, in this order, and no others.
 * - `ordered`: these calls in this order, others allowed between them (a subsequence).
 * - `unordered`: exactly these calls, in any order.
 * - `superset`: at least these calls, in any order, others allowed.
 * - `subset`: no call outside the list (each call matches an entry of its own); entries may go unused.
 */
export type TrajectoryMatchMode = 'strict' | 'ordered' | 'unordered' | 'superset' | 'subset'

const MODES = [
  'strict',
  'ordered',
  'unordered',
  'superset',
  'subset',
] as const satisfies readonly TrajectoryMatchMode[]

const calledToolsOptionsFields = {
  /** Default `'ordered'`. How the run's calls are compared with the list; see {@link TrajectoryMatchMode}. */
  mode: expecting(z.enum(MODES), `one of ${MODES.map((m) => `'${m}'`).join(', ')}`).default('ordered'),
}
/** The options of {@link calledTools}. */
export const CalledToolsOptionsSchema: StrictOptions<typeof calledToolsOptionsFields> =
  z.strictObject(calledToolsOptionsFields)
/** Options of {@link calledTools}. */
export type CalledToolsOptions = z.input<typeof CalledToolsOptionsSchema>

interface NormalizedPattern {
  readonly name: string
  readonly hasArgs: boolean
  readonly args: unknown
}

/**
 * A predicate that is true when the run's tool calls match `expected` under `mode` (default
 * `'ordered'`: these calls in this order, others allowed between them). Arguments given in a
 * pattern are compared as `toEqual` compares them, so asymmetric matchers work:
 * `calledTools(['lookup_order', { name: 'issue_refund', args: expect.objectContaining({ amount: 99 }) }])`.
 * The unordered modes find a one-to-one assignment of calls to patterns when there is one, not
 * only a greedy one, so overlapping argument patterns cannot give a false "no".
 */
export function calledTools(
  expected: readonly ToolCallPattern[],
  options: CalledToolsOptions = {},
): TrajectoryPredicate {
  const patterns = normalizePatterns(expected)
  const { mode } = parseOptions('calledTools', CalledToolsOptionsSchema, options)
  const predicate = (trajectory: AnyTrajectory) => matchCalls(allObservations(trajectory), patterns, mode)
  Object.defineProperty(predicate, 'name', { value: calledToolsLabel(patterns, mode) })
  return predicate
}

/**
 * A predicate that is true when the run called tool `name` with arguments equal to `args`, as
 * `toEqual` compares them: `calledToolWith('issue_refund', { amount: expect.any(Number) })`.
 */
export function calledToolWith(name: string, args: unknown): TrajectoryPredicate {
  const [pattern] = normalizePatterns([{ name, args }], 'calledToolWith')
  if (pattern === undefined) throw new Error('unreachable: one pattern in, one out')
  const predicate = (trajectory: AnyTrajectory) =>
    allObservations(trajectory).some((call) => callMatches(call, pattern))
  Object.defineProperty(predicate, 'name', { value: `call ${describePattern(pattern)}` })
  return predicate
}

function normalizePatterns(
  expected: readonly ToolCallPattern[],
  caller = 'calledTools',
): NormalizedPattern[] {
  if (!Array.isArray(expected)) {
    throw new InvalidOptionError({
      caller,
      option: 'expected',
      expected: 'an array of tool names or { name, args } patterns',
      received: describeReceived(expected),
    })
  }
  return expected.map((pattern: ToolCallPattern, index) => {
    const name = typeof pattern === 'string' ? pattern : (pattern as { name?: unknown } | null)?.name
    if (typeof name !== 'string' || name === '') {
      throw new InvalidOptionError({
        caller,
        option: caller === 'calledTools' ? `expected[${index}]` : 'name',
        expected: 'a tool name (a non-empty string) or { name, args }',
        received: describeReceived(pattern),
      })
    }
    const hasArgs = typeof pattern !== 'string' && Object.hasOwn(pattern, 'args')
    return { name, hasArgs, args: hasArgs ? (pattern as { args?: unknown }).args : undefined }
  })
}

function callMatches(call: Observation, pattern: NormalizedPattern): boolean {
  return call.tool === pattern.name && (!pattern.hasArgs || matchesValue(call.args, pattern.args))
}

function matchCalls(
  calls: readonly Observation[],
  patterns: readonly NormalizedPattern[],
  mode: TrajectoryMatchMode,
): boolean {
  switch (mode) {
    case 'strict':
      return (
        calls.length === patterns.length && patterns.every((pattern, i) => callMatches(calls[i]!, pattern))
      )
    case 'ordered':
      return isSubsequence(calls, patterns)
    case 'unordered':
      return calls.length === patterns.length && maximumMatching(calls, patterns) === patterns.length
    case 'superset':
      return maximumMatching(calls, patterns) === patterns.length
    case 'subset':
      return maximumMatching(calls, patterns) === calls.length
  }
}

/**
 * Whether the patterns match calls in order, with gaps. Matching each pattern to the earliest call
 * it accepts is optimal: it leaves the most calls for the patterns after it.
 */
function isSubsequence(calls: readonly Observation[], patterns: readonly NormalizedPattern[]): boolean {
  let next = 0
  for (const call of calls) {
    const pattern = patterns[next]
    if (pattern !== undefined && callMatches(call, pattern)) next += 1
  }
  return next === patterns.length
}

/**
 * The size of a maximum one-to-one assignment of calls to patterns that accept them (Kuhn's
 * augmenting paths; runs have tens of calls, so O(V·E) is nothing). A greedy first-fit can miss
 * an assignment when argument patterns overlap (`expect.anything()` taking the call that only
 * the specific pattern accepts); this cannot.
 */
function maximumMatching(calls: readonly Observation[], patterns: readonly NormalizedPattern[]): number {
  const accepts = patterns.map((pattern) =>
    calls.flatMap((call, index) => (callMatches(call, pattern) ? [index] : [])),
  )
  const callOwner = new Array<number>(calls.length).fill(-1)
  const augment = (patternIndex: number, visited: boolean[]): boolean => {
    for (const callIndex of accepts[patternIndex]!) {
      if (visited[callIndex]) continue
      visited[callIndex] = true
      const owner = callOwner[callIndex]!
      if (owner === -1 || augment(owner, visited)) {
        callOwner[callIndex] = patternIndex
        return true
      }
    }
    return false
  }
  let matched = 0
  for (let p = 0; p < patterns.length; p += 1) {
    if (augment(p, new Array<boolean>(calls.length).fill(false))) matched += 1
  }
  return matched
}

function describePattern(pattern: NormalizedPattern): string {
  return pattern.hasArgs ? `${pattern.name} with ${describeExpected(pattern.args)}` : pattern.name
}

/** "a, b and c" */
function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** How a message names the predicate, worded to follow "expected support to rarely …". */
function calledToolsLabel(patterns: readonly NormalizedPattern[], mode: TrajectoryMatchMode): string {
  const names = patterns.map(describePattern)
  if (names.length === 0) {
    return mode === 'ordered' || mode === 'superset' ? 'call any tools (or none)' : 'call no tools'
  }
  switch (mode) {
    case 'strict':
      return names.length === 1
        ? `call only ${names[0]}, once`
        : `call exactly ${names.join(', ')}, in that order`
    case 'ordered':
      return `call ${names.join(', then ')}`
    case 'unordered':
      return names.length === 1
        ? `call only ${names[0]}, once`
        : `call exactly ${joinAnd(names)}, in any order`
    case 'superset':
      return `call at least ${joinAnd(names)}`
    case 'subset':
      return `call no tools beyond ${joinAnd(names)}`
  }
}
