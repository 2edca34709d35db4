import { z } from 'zod'
import { EstimateSchema, IntervalSchema } from '../stats/estimate.js'
import { ArmDirectionSchema, ReplayErrorsSchema, ReplayHandleSchema } from './schema.js'

/**
 * Where a part sits inside a step's context, as JSON path segments: `['ticket']` for a key of an
 * object context, `['prompt', 2]` for the third message of an AI SDK prompt, `['systemInstructions']`
 * for an Agents SDK system prompt.
 */
export const ContextPathSchema = z.array(z.union([z.string(), z.number().int().nonnegative()]))
export type ContextPath = z.infer<typeof ContextPathSchema>

/** What kind of part of a context was ablated. */
export const ContextPartKindSchema = z.enum(['key', 'system', 'message', 'tool-result'])
export type ContextPartKind = z.infer<typeof ContextPartKindSchema>

/** A character range [start, end) of a part's text. */
export const TextSpanSchema = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
})
export type TextSpan = z.infer<typeof TextSpanSchema>

/** One part of the locus step's context, and what removing (or replacing) it did to P(bad). */
export const ContextPartSchema = z.object({
  path: ContextPathSchema,
  kind: ContextPartKindSchema,
  /** How messages name the part: `key "ticket"`, `system prompt`, `message 3 (user)`, `message 4 (tool result, lookup_order)`. */
  label: z.string(),
  /** The part's text as the step saw it: a string value or a message's text; other values as JSON. */
  text: z.string(),
  /** False when the budget stopped the attribution before this part's arm ran. */
  evaluated: z.boolean(),
  /** P(bad | step k decides without this part), with its interval. */
  pBad: EstimateSchema,
  /**
   * P(bad | ablated) − P(bad | intact): negative means removing the part rescues. Paired by common
   * random numbers, with the same methods and the same 1 − 2α two-sided level as contrastive effects.
   */
  effect: IntervalSchema,
  /** One-sided p-value of "removing the part reduces P(bad)", Holm-adjusted over the parts. */
  pValue: z.number().min(0).max(1),
  /** As a contrastive step's: `undecided` when replays errored and the part's effect was not decided. */
  direction: ArmDirectionSchema,
  rolloutsUsed: z.number().int().nonnegative(),
  /** Absent when none did: the replays of this part's arm that errored. */
  errors: ReplayErrorsSchema.optional(),
})
export type ContextPart = z.infer<typeof ContextPartSchema>

/** One probe of the refinement: the spans removed together, and whether removing them rescued. */
export const SpanProbeSchema = z.object({
  /** The units (sentences or lines) removed, as index range [from, to) into the part's units. */
  units: z.object({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative() }),
  span: TextSpanSchema,
  effect: IntervalSchema,
  /** Adjusted one-sided p-value of the probe's rescue (see `methods.refinement`). */
  pValue: z.number().min(0).max(1),
  rescues: z.boolean(),
  rolloutsUsed: z.number().int().nonnegative(),
  /** Absent when none did: the replays of this probe's arm that errored. */
  errors: ReplayErrorsSchema.optional(),
})
export type SpanProbe = z.infer<typeof SpanProbeSchema>

/** The search inside the most rescuing part for the smallest span whose removal rescues. */
export const ContextRefinementSchema = z.object({
  path: ContextPathSchema,
  /** How the part's text was split. */
  unit: z.enum(['sentence', 'line']),
  /** Units the part's text was split into. */
  units: z.number().int().nonnegative(),
  probes: z.array(SpanProbeSchema),
})
export type ContextRefinement = z.infer<typeof ContextRefinementSchema>

/** What the locus step decided on: the part (and, refined, the span) whose removal rescues. */
export const ContextCulpritSchema = z.object({
  path: ContextPathSchema,
  kind: ContextPartKindSchema,
  label: z.string(),
  /** The culprit text: the refined span, or the whole part when refinement found no smaller span. */
  text: z.string(),
  /** The range of `text` inside the part's text. */
  span: TextSpanSchema,
  /**
   * Absent for plain text. Where the culprit span sits inside a tool's JSON output, as a reader
   * writes it: `reviews`, `items[1].text` (the part's text is then the output's string leaves).
   */
  field: z.string().optional(),
  /** P(bad | culprit removed) − P(bad | intact), with its interval. */
  effect: IntervalSchema,
  pValue: z.number().min(0).max(1),
})
export type ContextCulprit = z.infer<typeof ContextCulpritSchema>

/** The result of `contextAttribution`: plain data, read back by the reporter, the HTML report and the CLI. */
export const ContextAttributionResultSchema = z.object({
  kind: z.literal('context'),
  agent: z.string(),
  factual: ReplayHandleSchema,
  seed: z.number().int(),
  /** The step whose context was taken apart (the causal locus, when the matchers run it). */
  step: z.number().int().nonnegative(),
  stepName: z.string(),
  /** `remove`: the part is left out; `placeholder`: its text is replaced by a neutral placeholder. */
  ablation: z.enum(['remove', 'placeholder', 'custom']),
  /** P(bad | steps before k held, step k drawn afresh on its intact context): what every part is compared with. */
  intact: EstimateSchema,
  /** Absent when none did: the replays of the intact arm that errored. */
  intactErrors: ReplayErrorsSchema.optional(),
  parts: z.array(ContextPartSchema),
  /** Null when no part's removal rescues significantly (abstain), or when the budget stopped first. */
  culprit: ContextCulpritSchema.nullable(),
  /**
   * Null when no part rescued, when the culprit part has a single unit or no text of its own (a JSON
   * value), or with `refine: false`.
   */
  refinement: ContextRefinementSchema.nullable(),
  /**
   * Absent (or null) when refinement ran or there is no culprit. Why the culprit part was not
   * refined: `off` (`refine: false`), `no-text` (it holds no text of its own: an image, a JSON value
   * without strings), `one-unit` (its text is one sentence or line), `budget` (spent first).
   */
  refinementSkipped: z.enum(['off', 'no-text', 'one-unit', 'budget']).nullable().optional(),
  /** Share of held steps whose name and context matched the recording, over every replay. */
  actionMatchRate: z.number().min(0).max(1),
  rolloutsUsed: z.number().int().nonnegative(),
  /** The maximum rollouts per arm. */
  rolloutsPerArm: z.number().int().positive(),
  crn: z.boolean(),
  sequential: z.boolean(),
  confidence: z.number().gt(0).lt(1),
  correction: z.literal('holm'),
  methods: z.object({
    proportion: z.string(),
    effect: z.string(),
    sequential: z.string().nullable(),
    /** How the refinement's probes keep the culprit span's error rate (null without refinement). */
    refinement: z.string().nullable(),
  }),
  /** True when the budget stopped the attribution early; the parts hold what was done. */
  truncated: z.boolean(),
})
export type ContextAttributionResult = z.infer<typeof ContextAttributionResultSchema>
