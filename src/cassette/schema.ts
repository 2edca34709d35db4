import { z } from 'zod'
import { JsonSchema } from '../trajectory/schema.js'

/** The version tag of cassette files; bumped when the shape changes incompatibly. */
export const CASSETTE_SCHEMA = 'vitest-causal-replay/cassette@1'

const Count = z.number().int().nonnegative()

/** A step's stream, stored so a reviewer sees which draw an entry is. */
export const StepStreamSchema = z.strictObject({ seed: z.number().int(), rollout: Count, step: Count })

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
  meta: z.record(z.string(), JsonSchema).optional(),
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

/** One entry of a cassette. */
export const CassetteEntrySchema = z.discriminatedUnion('kind', [StepEntrySchema, ToolEntrySchema])
export type CassetteEntry = z.infer<typeof CassetteEntrySchema>

/** A cassette file: entries by key (see `stepKey`, `toolKey`), written sorted by key. */
export const CassetteFileSchema = z.strictObject({
  schema: z.literal(CASSETTE_SCHEMA),
  entries: z.record(
    z.string().regex(/^(step|tool):[0-9a-f]{32}$/, 'a key step:<32 hex> or tool:<32 hex>'),
    CassetteEntrySchema,
  ),
})
export type CassetteFile = z.infer<typeof CassetteFileSchema>
