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
} from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import type { Trajectory } from '../../trajectory/schema.js'
import type { ContextPath } from '../context-schema.js'
import { attributionFields, resolveAttributionOptions, type ResolvedAttributionOptions } from '../options.js'
import { armSamplingFields, armStopFields } from '../arms/arm-options.js'

/**
 * How a part is taken out of the context: `remove` leaves it out (a key deleted, a message dropped,
 * a tool result emptied: see `docs/ARCHITECTURE.md`), `placeholder` keeps its place and replaces its
 * text with {@link DEFAULT_PLACEHOLDER} (or `placeholder`).
 */
export type ContextAblation = 'remove' | 'placeholder'

/** Default placeholder text of `ablation: 'placeholder'`: short, neutral, and plainly an edit. */
export const DEFAULT_PLACEHOLDER = DEFAULTS.contextPlaceholder

/** One part of a custom context, as a user's `parts` lists it. */
export interface CustomContextPart {
  path: ContextPath
  /** How messages name the part, e.g. `key "ticket"`. */
  label: string
  /** The part's text as the step saw it. Refinement splits this text into sentences or lines. */
  text: string
}

/**
 * How the parts of a step's context are ablated: the options `contextAttribution` and the
 * matchers' `attribute.context` share.
 */
export const contextAblationFields = {
  /**
   * Default `'remove'`. How a part is ablated: left out, or (`'placeholder'`) replaced by
   * `placeholder`. Ignored when `ablate` is given (the result then says `'custom'`).
   */
  ablation: oneOf(['remove', 'placeholder']).default(DEFAULTS.contextAblation),
  /** Default `"[removed]"`. The text that replaces an ablated part (or span) under `ablation: 'placeholder'`. */
  placeholder: expecting(z.string(), `a string, e.g. "${DEFAULT_PLACEHOLDER}"`).default(DEFAULT_PLACEHOLDER),
  /**
   * Default: none (the built-in ablation). A custom context type's own ablation: the context with
   * the part at `path` taken out. Called for whole parts only; a span inside a part is always
   * removed from the part's text.
   */
  ablate: functionField<(context: Json, path: ContextPath) => Json>(
    'a function (context, path) => context with the part removed',
  ).optional(),
  /**
   * Default: none (the built-in listing: top-level keys of an object context; the messages of an
   * AI SDK, Agents SDK or LangChain model context). A custom context type's own parts.
   */
  parts: functionField<(context: Json) => CustomContextPart[]>(
    'a function (context) => [{ path, label, text }]',
  ).optional(),
  /** Default true. Search the most rescuing part for the smallest sentence or line span whose removal rescues. */
  refine: BooleanField.default(DEFAULTS.contextRefine),
}

const stepField = {
  /** Required. The step whose context is taken apart (the causal locus, when the matchers call it). */
  step: NonNegativeIntegerField,
}
// Annotated with the fragments' types so that their doc comments reach the emitted `.d.ts`.
const contextAttributionFields: typeof attributionFields &
  typeof stepField &
  typeof contextAblationFields &
  typeof armSamplingFields &
  typeof armStopFields = {
  ...attributionFields,
  ...stepField,
  ...contextAblationFields,
  ...armSamplingFields,
  ...armStopFields,
}
const ContextAttributionOptionsSchema: StrictOptions<typeof contextAttributionFields> =
  z.strictObject(contextAttributionFields)

/** Options of `contextAttribution`. */
export type ContextAttributionOptions = z.input<typeof ContextAttributionOptionsSchema>

/** {@link ContextAttributionOptions} checked, with every default filled in. */
export type ResolvedContextAttributionOptions = Omit<
  z.output<typeof ContextAttributionOptionsSchema>,
  'ablation'
> &
  ResolvedAttributionOptions & { ablation: ContextAblation | 'custom' }

/** Resolves the options of `contextAttribution` once, naming any option it cannot use. */
export function resolveContextAttributionOptions(
  target: AgentOrScenario,
  factual: Trajectory,
  options: ContextAttributionOptions,
): ResolvedContextAttributionOptions {
  const caller = 'contextAttribution'
  const parsed = parseOptions(caller, ContextAttributionOptionsSchema, options)
  return completeContextOptions(caller, factual, resolveAttributionOptions(caller, target, factual, parsed))
}

/**
 * Checks that `options.step` can be taken apart (a step of the factual run that recorded its
 * context) and names a custom ablation: the part of resolving context attribution's options that
 * depends on the run, for `contextAttribution` and for the matchers' attribution, which builds its
 * options already resolved.
 */
export function completeContextOptions(
  caller: string,
  factual: Trajectory,
  options: Omit<ResolvedContextAttributionOptions, 'ablation'> & { ablation: ContextAblation },
): ResolvedContextAttributionOptions {
  const recorded = factual.steps[options.step]
  if (recorded === undefined) {
    throw new InvalidOptionError({
      caller,
      option: 'step',
      expected: `a step index of the factual run, 0 to ${factual.steps.length - 1}`,
      received: String(options.step),
    })
  }
  if (recorded.context === undefined) {
    throw new InvalidOptionError({
      caller,
      option: 'step',
      expected: 'a step that recorded the context it decided from',
      received: `step ${options.step} "${recorded.name}", recorded without a context`,
      hint: 'Give the step a context (ctx.step(name, policy, { context })) or use a wrapped model.',
    })
  }
  return { ...options, ablation: options.ablate === undefined ? options.ablation : 'custom' }
}
