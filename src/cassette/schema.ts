import { z } from 'zod'
import { JsonObjectSchema, JsonSchema } from '../trajectory/schema.js'

/**
 * The version tag of the cassette files this version writes: entries reference their requests,
 * responses and tool values by digest in a table of values, each distinct value stored once.
 */
export const CASSETTE_SCHEMA = 'vitest-causal-replay/cassette@2'

/** The version tag of the first cassette files (every entry held its values inline); still read. */
export const CASSETTE_SCHEMA_V1 = 'vitest-causal-replay/cassette@1'

const Count = z.number().int().nonnegative()

/**
 * A step's stream, stored so a reviewer sees which draw an entry is. A judge's call names its judge,
 * and `step` is then its call number on the run.
 */
export const StepStreamSchema = z.strictObject({
  seed: z.number().int(),
  rollout: Count,
  step: Count,
  judge: z.string().exactOptional(),
})

/** A tool call's place: its step (−1: before the first step) and position among that step's calls. */
export const ToolStreamSchema = z.strictObject({
  seed: z.number().int(),
  rollout: Count,
  step: z.number().int().min(-1),
  position: Count,
})

/** A stored model call (or opted-in step): what a hit hands back instead of calling the policy. */
export const StepEntrySchema = z.strictObject({
  kind: z.literal('step'),
  name: z.string(),
  /** The model the step calls; absent for a user step that opted in with `cache: true`. */
  model: z.string().optional(),
  stream: StepStreamSchema,
  /** One line for review: the adapter's `meta.summary`, else the start of the action. */
  summary: z.string(),
  /** The request the key was made from; absent when the step had no context. Shown in offline diffs. */
  request: JsonSchema.optional(),
  action: JsonSchema,
  /** The step's meta as recorded (token usage, finish reason, …), restored on a hit. */
  meta: JsonObjectSchema.optional(),
})
export type StepEntry = z.infer<typeof StepEntrySchema>

/** A stored tool result (tools that opted in with `cache: true`). */
export const ToolEntrySchema = z.strictObject({
  kind: z.literal('tool'),
  tool: z.string(),
  stream: ToolStreamSchema,
  args: JsonSchema,
  /** Absent when the tool returned `undefined`. */
  result: JsonSchema.optional(),
})
export type ToolEntry = z.infer<typeof ToolEntrySchema>

/** One entry of a cassette, its values inline: what the engine reads and records. */
export const CassetteEntrySchema = z.discriminatedUnion('kind', [StepEntrySchema, ToolEntrySchema])
export type CassetteEntry = z.infer<typeof CassetteEntrySchema>

const EntryKey = z.string().regex(/^(step|tool):[0-9a-f]{32}$/, 'a key step:<32 hex> or tool:<32 hex>')

/** A value's address in the table of values: the first 32 hex digits of SHA-256 over its canonical JSON. */
export const ValueRefSchema = z.string().regex(/^[0-9a-f]{32}$/, 'a value digest of 32 hex digits')

/** A step entry as written: its request, action and meta are digests into the file's `values`. */
export const StoredStepEntrySchema = StepEntrySchema.extend({
  request: ValueRefSchema.optional(),
  action: ValueRefSchema,
  meta: ValueRefSchema.optional(),
})

/** A tool entry as written: its arguments and result are digests into the file's `values`. */
export const StoredToolEntrySchema = ToolEntrySchema.extend({
  args: ValueRefSchema,
  result: ValueRefSchema.optional(),
})

/** A cassette file of the first version: entries by key, each with its values inline. */
export const CassetteFileV1Schema = z.strictObject({
  schema: z.literal(CASSETTE_SCHEMA_V1),
  entries: z.record(EntryKey, CassetteEntrySchema),
})

/**
 * A cassette file: entries by key (see `stepKey`, `toolKey`), written sorted by key, and the
 * table of the values they reference, by digest. A call repeated across rollouts (the same reply
 * to the same request on another stream) stores its request and its answer once.
 */
export const CassetteFileV2Schema = z.strictObject({
  schema: z.literal(CASSETTE_SCHEMA),
  entries: z.record(EntryKey, z.discriminatedUnion('kind', [StoredStepEntrySchema, StoredToolEntrySchema])),
  values: z.record(ValueRefSchema, JsonSchema),
})
export type CassetteFileV2 = z.infer<typeof CassetteFileV2Schema>

/** Every cassette file this version reads, told apart by `schema`. */
export const CassetteFileSchema = z.discriminatedUnion('schema', [CassetteFileV1Schema, CassetteFileV2Schema])
