import { z } from 'zod'
import type { AgentOrScenario } from '../../agent/define-agent.js'
import { InvalidOptionError } from '../../errors.js'
import type { Json } from '../../json.js'
import { DEFAULTS } from '../../options/defaults.js'
import {
  BooleanField,
  expecting,
  functionField,
  NonNegativeIntegerField,
  oneOf,
  PositiveIntegerField,
} from '../../options/fields.js'
import { parseOptions, type DescribesSchema } from '../../options/parse-options.js'
import type { Trajectory } from '../../trajectory/schema.js'
import type { ContextPath } from '../context-schema.js'
import {
  attributionFields,
  resolveAttributionOptions,
  type AttributionOptions,
  type ResolvedAttributionOptions,
} from '../options.js'

/**
 * How a part is taken out of the context: `remove` leaves it out (a key deleted, a message dropped,
 * a tool result emptied: see `docs/ARCHITECTURE.md`), `placeholder` keeps its place and replaces its
 * text with {@link DEFAULT_PLACEHOLDER} (or `placeholder`).
 */
export type ContextAblation = 'remove' | 'placeholder'

/** Default placeholder text of `ablation: 'placeholder'`: short, neutral, and plainly an edit. */
export const DEFAULT_PLACEHOLDER = '[removed]'

/** One part of a custom context, as a user's `parts` lists it. */
export interface CustomContextPart {
  path: ContextPath
  /** How messages name the part, e.g. `key "ticket"`. */
  label: string
  /** The part's text as the step saw it. Refinement splits this text into sentences or lines. */
  text: string
}

/** Options of `contextAttribution`. */
export interface ContextAttributionOptions extends AttributionOptions {
  /** Required. The step whose context is taken apart (the causal locus, when the matchers call it). */
  step: number
  /**
   * Default `'remove'`. How a part is ablated: left out, or (`'placeholder'`) replaced by
   * `placeholder`. Ignored when `ablate` is given (the result then says `'custom'`).
   */
  ablation?: ContextAblation
  /** Default `"[removed]"`. The text that replaces an ablated part (or span) under `ablation: 'placeholder'`. */
  placeholder?: string
  /**
   * Default: none (the built-in ablation). A custom context type's own ablation: the context with
   * the part at `path` taken out. Called for whole parts only; a span inside a part is always
   * removed from the part's text.
   */
  ablate?: ((context: Json, path: ContextPath) => Json) | undefined
  /**
   * Default: none (the built-in listing: top-level keys of an object context; the messages of an
   * AI SDK, Agents SDK or LangChain model context). A custom context type's own parts.
   */
  parts?: ((context: Json) => CustomContextPart[]) | undefined
  /** Default true. Search the most rescuing part for the smallest sentence or line span whose removal rescues. */
  refine?: boolean
  /** Default 32. The most rollouts per arm (the intact arm, each part, each refinement probe); sequential arms stop sooner. */
  rollouts?: number
  /** Default true. Common random numbers: every arm replays with the same seed, compared pair by pair. */
  crn?: boolean
  /** Default true. Batches of `batchSize` and anytime-valid stop rules; false runs exactly `rollouts` per arm. */
  sequential?: boolean
  /** Default 0.25. Sequential only: an arm stops as negligible once effects of this size are ruled out. */
  minEffect?: number
  /** Default 4. Sequential only: rollouts per arm between two looks at the data. */
  batchSize?: number
}

/** {@link ContextAttributionOptions} checked, with every default filled in. */
export interface ResolvedContextAttributionOptions extends ResolvedAttributionOptions {
  step: number
  ablation: ContextAblation | 'custom'
  placeholder: string
  ablate: ((context: Json, path: ContextPath) => Json) | undefined
  parts: ((context: Json) => CustomContextPart[]) | undefined
  refine: boolean
  rollouts: number
  crn: boolean
  sequential: boolean
  minEffect: number
  batchSize: number
}

const ContextAttributionOptionsSchema = z.strictObject({
  ...attributionFields,
  step: NonNegativeIntegerField,
  ablation: oneOf(['remove', 'placeholder']).default('remove'),
  placeholder: expecting(z.string(), 'a string, e.g. "[removed]"').default(DEFAULT_PLACEHOLDER),
  ablate: functionField<(context: Json, path: ContextPath) => Json>(
    'a function (context, path) => context with the part removed',
  ).optional(),
  parts: functionField<(context: Json) => CustomContextPart[]>(
    'a function (context) => [{ path, label, text }]',
  ).optional(),
  refine: BooleanField.default(true),
  rollouts: PositiveIntegerField.default(DEFAULTS.contrastiveRollouts),
  crn: BooleanField.default(DEFAULTS.crn),
  sequential: BooleanField.default(DEFAULTS.sequential),
  minEffect: expecting(
    z.number().gt(0).lte(1),
    `a change of P(bad) in (0, 1], e.g. ${DEFAULTS.minEffect}`,
  ).default(DEFAULTS.minEffect),
  batchSize: PositiveIntegerField.default(DEFAULTS.batchSize),
})
const _sameOptions: DescribesSchema<ContextAttributionOptions, typeof ContextAttributionOptionsSchema> = true

/** Resolves the options of `contextAttribution` once, naming any option it cannot use. */
export function resolveContextAttributionOptions(
  target: AgentOrScenario,
  factual: Trajectory,
  options: ContextAttributionOptions,
): ResolvedContextAttributionOptions {
  const caller = 'contextAttribution'
  const parsed = parseOptions(caller, ContextAttributionOptionsSchema, options)
  const resolved = resolveAttributionOptions(caller, target, factual, parsed)
  const recorded = factual.steps[parsed.step]
  if (recorded === undefined) {
    throw new InvalidOptionError({
      caller,
      option: 'step',
      expected: `a step index of the factual run, 0 to ${factual.steps.length - 1}`,
      received: String(parsed.step),
    })
  }
  if (recorded.context === undefined) {
    throw new InvalidOptionError({
      caller,
      option: 'step',
      expected: 'a step that recorded the context it decided from',
      received: `step ${parsed.step} "${recorded.name}", recorded without a context`,
      hint: 'Give the step a context (ctx.step(name, policy, { context })) or use a wrapped model.',
    })
  }
  return {
    ...resolved,
    step: parsed.step,
    ablation: parsed.ablate === undefined ? parsed.ablation : 'custom',
    placeholder: parsed.placeholder,
    ablate: parsed.ablate,
    parts: parsed.parts,
    refine: parsed.refine,
    rollouts: parsed.rollouts,
    crn: parsed.crn,
    sequential: parsed.sequential,
    minEffect: parsed.minEffect,
    batchSize: parsed.batchSize,
  }
}
