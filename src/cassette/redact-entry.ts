import type { StepOptions } from '../agent/types.js'
import { nonJsonProblem, type Json, type JsonObject } from '../json.js'
import type { CassetteRedactor } from './redact.js'
import type { CassetteEntry, StepEntry, ToolEntry } from './schema.js'
import { stepSummary } from './summary.js'

/** What a step records in its meta, from its action: the step's `meta` option (an adapter's `actionMeta`). */
export type DescribeAction = (action: Json) => JsonObject

/** The step options an entry is rebuilt with when it is redacted (an adapter's `actionMeta` and stream join). */
export type EntryRebuild = Pick<StepOptions<Json>, 'meta' | 'joinStreamed'>

/** A step's options as an {@link EntryRebuild}: the cassette holds the action the step's policy returned, of the type they read. */
export function entryRebuild<A extends Json>(options: StepOptions<A>): EntryRebuild {
  return options as unknown as EntryRebuild
}

/**
 * An entry as the file gets it: each value redacted, and what is derived from a value built again
 * from the redacted one, so no derived text quotes a secret. A step's action first has what its
 * stream delivered in pieces joined (`joinStreamed`: a key or a secret split across a tool call's
 * argument deltas is then whole), and the file stores it so. Its meta comes from its `meta`
 * function called on the redacted action (an adapter's summary quotes the tool calls' arguments),
 * then redacted itself; the entry's summary is made from those. Without `meta`, or when it fails
 * on the redacted action, the recorded meta is redacted and loses its summary, and the entry's
 * summary is the start of the redacted action.
 */
export function redactEntry(
  entry: CassetteEntry,
  redact: CassetteRedactor,
  rebuild: EntryRebuild,
): CassetteEntry {
  if (entry.kind === 'tool') {
    const tool: ToolEntry = { ...entry, args: redact(entry.args, 'tool-args') }
    if (entry.result !== undefined) tool.result = redact(entry.result, 'tool-result')
    return tool
  }
  const whole = rebuild.joinStreamed === undefined ? entry.action : rebuild.joinStreamed(entry.action)
  const action = redact(whole, 'action')
  const step: StepEntry = { ...entry, action }
  if (entry.request !== undefined) step.request = redact(entry.request, 'request')
  const meta = entry.meta === undefined ? undefined : redactedMeta(entry.meta, action, redact, rebuild.meta)
  if (meta === undefined) delete step.meta
  else step.meta = meta
  step.summary = stepSummary(action, meta)
  return step
}

function redactedMeta(
  meta: JsonObject,
  action: Json,
  redact: CassetteRedactor,
  describe: DescribeAction | undefined,
): JsonObject | undefined {
  const rebuilt = describe === undefined ? undefined : describeRedacted(describe, action)
  const source = rebuilt ?? withoutSummary(meta)
  const redacted = redact(source, 'meta')
  // A redactor that returns something else than an object drops the meta.
  return redacted !== null && typeof redacted === 'object' && !Array.isArray(redacted) ? redacted : undefined
}

/** The meta `describe` gives the redacted action, or undefined when it throws or gives no JSON object. */
function describeRedacted(describe: DescribeAction, action: Json): JsonObject | undefined {
  let meta: unknown
  try {
    meta = describe(action)
  } catch {
    // An adapter may not read a redacted value back (a "[redacted]" where it expects an object).
    return undefined
  }
  return meta !== null &&
    typeof meta === 'object' &&
    !Array.isArray(meta) &&
    nonJsonProblem(meta) === undefined
    ? (meta as JsonObject)
    : undefined
}

function withoutSummary(meta: JsonObject): JsonObject {
  if (!Object.hasOwn(meta, 'summary')) return meta
  const { summary: _summary, ...rest } = meta
  return rest
}
