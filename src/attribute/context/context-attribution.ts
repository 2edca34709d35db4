import { InvalidOptionError } from '../../errors.js'
import { assertJson, type Json } from '../../json.js'
import { editContext, resample } from '../../replay/interventions.js'
import { planFor } from '../../replay/plan.js'
import type { Trajectory } from '../../trajectory/schema.js'
import { sequentialEffectMethod } from '../arms/arm-comparison.js'
import { PairedArms, type TestedArm } from '../arms/paired-arms.js'
import { CAP_TEST_SHARE } from '../arms/probe-tests.js'
import { pairedCounts, type Arm } from '../arms/replay-arms.js'
import type {
  ContextAttributionResult,
  ContextCulprit,
  ContextPart,
  ContextRefinement,
  SpanProbe,
  TextSpan,
} from '../context-schema.js'
import type { ContextCodecs } from './context-codec.js'
import type { ResolvedContextAttributionOptions } from './context-options.js'
import {
  contextParts,
  customParts,
  editSpan,
  LEAF_SEPARATOR,
  leafTexts,
  type ContextPartHandle,
} from './context-parts.js'
import { splitLeafUnits, unitRange, type TextUnits } from './context-spans.js'

/**
 * Context attribution on options already resolved: the engine of the public `contextAttribution`
 * (`src/entries/context-attribution.ts` says what it computes) and of the matchers' attribution,
 * which resolves them once. `codecs` list the parts of a model call's context (see `contextParts`):
 * the layer above hands in the adapters' codecs, so attribution imports no adapter.
 *
 * The intact arm's first rollouts are taken from `intact`, if given: the arm of `resample(step)`
 * that a contrastive attribution with the same seed, tools and common random numbers already ran
 * (its arm at the locus). Rollout r of an arm is a function of its plan, its seed and r, so these
 * are the very rollouts the intact arm would run: reusing them changes no outcome, and only the
 * rollouts run here count in `rolloutsUsed`. An arm with another seed, or with a rollout the budget
 * refused, is not reused.
 */
export async function contextAttributionResolved(
  factual: Trajectory,
  resolved: ResolvedContextAttributionOptions,
  codecs: ContextCodecs,
  intact?: Arm,
): Promise<ContextAttributionResult> {
  return new ContextRun(factual, resolved, listParts(factual, resolved, codecs), intact).run()
}

/** A part of the context, ablated in its arm. */
interface PartArm extends TestedArm {
  readonly part: ContextPartHandle
}

/** A refinement probe: the span of the culprit part's units [from, to) removed in its arm. */
interface ProbeArm extends TestedArm {
  readonly from: number
  readonly to: number
  readonly span: TextSpan
}

/** The search inside the culprit part, while it runs. */
interface Refinement {
  readonly part: PartArm
  readonly units: TextUnits
  /** Bonferroni factor: every non-root dyadic span of the units, 2u − 2. */
  readonly spans: number
  readonly probes: ProbeArm[]
  /** The smallest span whose removal rescued significantly, if any. */
  found: ProbeArm | undefined
}

function listParts(
  factual: Trajectory,
  options: ResolvedContextAttributionOptions,
  codecs: ContextCodecs,
): ContextPartHandle[] {
  const recorded = factual.steps[options.step]
  const context = recorded?.context as Json
  const parts =
    options.parts === undefined ? contextParts(context, codecs) : customParts(context, options.parts)
  if (parts === undefined) {
    throw new InvalidOptionError({
      caller: 'contextAttribution',
      option: 'step',
      expected: 'a step whose context is an object or a model call (AI SDK, Agents SDK, LangChain)',
      received: `step ${options.step} "${recorded?.name ?? ''}" with a ${Array.isArray(context) ? 'array' : typeof context} context`,
      hint: 'Pass `parts` (and `ablate`) to take a context of your own type apart.',
    })
  }
  if (parts.length < 2) {
    throw new InvalidOptionError({
      caller: 'contextAttribution',
      option: 'step',
      expected: 'a step whose context has at least 2 parts (keys or messages) to compare',
      received: `step ${options.step} "${recorded?.name ?? ''}" with ${parts.length} part${parts.length === 1 ? '' : 's'}${parts.length === 1 ? ` (${parts[0]?.label ?? ''})` : ''}`,
    })
  }
  return parts
}

class ContextRun {
  private readonly engine: PairedArms
  private readonly parts: PartArm[]
  private refinement: Refinement | undefined

  constructor(
    private readonly factual: Trajectory,
    private readonly options: ResolvedContextAttributionOptions,
    parts: readonly ContextPartHandle[],
    reused: Arm | undefined,
  ) {
    const { tools, step } = options
    this.engine = new PairedArms(
      options,
      planFor(factual, resample(step), tools),
      'intact',
      'contextAttribution',
      options.rollouts * contextArms(factual.steps[step]?.context as Json, parts, options.refine),
    )
    const { intact } = this
    if (reused !== undefined && reused.seed === intact.seed) intact.reuse(reused)
    this.parts = parts.map((part, index) => ({
      part,
      ...this.engine.tested(
        this.engine.arm(
          planFor(
            factual,
            editContext(
              step,
              this.edit((context) => this.ablate(part, context)),
            ),
            tools,
          ),
          `part/${index}`,
        ),
      ),
    }))
  }

  /** The reference arm: `resample(step)`, the context intact. */
  private get intact(): Arm {
    return this.engine.reference
  }

  async run(): Promise<ContextAttributionResult> {
    for (const part of this.parts) part.state = 'running'
    await this.engine.advance(this.parts, () => {
      const rejected = this.partRejected()
      return (part) => rejected[this.parts.indexOf(part)] === true
    })
    const culprit = this.culpritPart()
    if (culprit !== undefined && this.options.refine && !this.engine.truncated) await this.refine(culprit)
    return this.result(culprit)
  }

  /** The locus step's context as recorded: what the parts' texts were read from. */
  private recordedContext(): Json {
    return this.factual.steps[this.options.step]?.context as Json
  }

  /** Why the culprit part was not refined, or null when it was (or there is no culprit). */
  private refinementSkipped(culprit: PartArm | undefined): ContextAttributionResult['refinementSkipped'] {
    if (culprit === undefined || this.refinement !== undefined) return null
    if (!this.options.refine) return 'off'
    if (culprit.part.leaves.length === 0) return 'no-text'
    if (refinableUnits(this.recordedContext(), culprit.part) === undefined) return 'one-unit'
    return 'budget'
  }

  /** The step's edit: the ablated copy of the live context, checked to be JSON. */
  private edit(ablate: (context: Json) => Json): (context: Json | undefined) => Json {
    return (context) => {
      if (context === undefined) {
        throw new Error(`contextAttribution: step ${this.options.step} has no context in this replay.`)
      }
      const edited = ablate(context)
      assertJson(edited, `contextAttribution: the ablated context of step ${this.options.step}`)
      return edited
    }
  }

  private ablate(part: ContextPartHandle, context: Json): Json {
    const { ablate, ablation, placeholder } = this.options
    if (ablate !== undefined) return ablate(structuredClone(context), part.path)
    return ablation === 'placeholder' ? part.replace(context, placeholder) : part.remove(context)
  }

  /**
   * Binary search over the dyadic spans of the culprit part's units (see `contextAttribution`
   * for why its culprit keeps its error rate). Each level probes the left half. A left half that
   * rescues significantly is descended into. One that decidedly does not (negligible, worsens, or
   * futile: see `NAVIGATION_PAIRS`) sends the search into the right half without probing it:
   * if removing the parent rescues and removing its left half does not, a single culprit span lies
   * in the right half. One left
   * undecided at its cap gets its right half probed too, and the search stops if that does not
   * rescue either. A node reached without a probe of its own is probed at the end (the
   * confirmation); if it does not rescue, the culprit is the smallest span that did (at worst the
   * whole part). At most 2·⌈log2 u⌉ + 1 probes, about log2 u + 1 when every probe decides.
   */
  private async refine(culprit: PartArm): Promise<void> {
    const units = refinableUnits(this.recordedContext(), culprit.part)
    if (units === undefined) return
    const refinement: Refinement = {
      part: culprit,
      units,
      spans: 2 * units.spans.length - 2,
      probes: [],
      found: undefined,
    }
    this.refinement = refinement
    let from = 0
    let to = units.spans.length
    const run = async (low: number, high: number): Promise<ProbeArm | undefined> => {
      const probe = this.probe(refinement, low, high)
      await this.engine.advance([probe], () => (tested) => this.probeRejected(refinement, tested), true)
      return this.engine.truncated ? undefined : probe
    }
    while (to - from > 1) {
      const middle = Math.floor((from + to) / 2)
      const left = await run(from, middle)
      if (left === undefined) return
      if (this.probeRejected(refinement, left)) {
        refinement.found = left
        to = middle
        continue
      }
      if (this.decidedNoRescue(left)) {
        from = middle
        continue
      }
      const right = await run(middle, to)
      if (right === undefined) return
      if (!this.probeRejected(refinement, right)) break
      refinement.found = right
      from = middle
    }
    const found = refinement.found
    const atRoot = from === 0 && to === units.spans.length
    if (atRoot || (found !== undefined && found.from === from && found.to === to)) return
    const confirmation = await run(from, to)
    if (confirmation !== undefined && this.probeRejected(refinement, confirmation)) {
      refinement.found = confirmation
    }
  }

  /**
   * Whether a probe that did not rescue significantly points away from a rescue: sequential, it
   * stopped as negligible, worsening or futile (one undecided at its cap does not); at a fixed K,
   * its pairs do not lean toward a rescue (no more rescued pairs than worsened ones).
   */
  private decidedNoRescue(probe: ProbeArm): boolean {
    if (this.options.sequential) return probe.state !== 'capped' && probe.state !== 'running'
    const counts = pairedCounts(probe.arm, this.intact)
    return counts.better <= counts.worse
  }

  private probe(refinement: Refinement, from: number, to: number): ProbeArm {
    const { options, engine } = this
    const span = unitRange(refinement.units, from, to)
    const replacement = options.ablation === 'placeholder' ? options.placeholder : ''
    const part = refinement.part.part
    const arm = engine.arm(
      planFor(
        this.factual,
        editContext(
          options.step,
          this.edit((context) => editSpan(context, part, span, replacement)),
        ),
        options.tools,
      ),
      `span/${from}-${to}`,
    )
    // A probe's exact sign test at the cap takes most of its level (see CAP_TEST_SHARE).
    const probe: ProbeArm = {
      from,
      to,
      span,
      ...engine.tested(arm, {
        state: 'running',
        eProcessShare: 1 - CAP_TEST_SHARE,
        fixedTests: [{ pairs: options.rollouts, share: CAP_TEST_SHARE }],
      }),
    }
    refinement.probes.push(probe)
    return probe
  }

  /**
   * Holm over the parts of the raw one-sided p-values of "removing this part rescues": the
   * e-process alone (every part runs at once, as contrastive's linear search), or the fixed-sample
   * test; 1 when not evaluated.
   */
  private partAdjusted(): number[] {
    return this.engine.holmAdjusted(this.parts)
  }

  private partRejected(): boolean[] {
    return this.partAdjusted().map((p) => p <= this.engine.alpha)
  }

  /**
   * A probe's p-value, Bonferroni-adjusted over the 2u − 2 spans the search could probe. Sequential
   * probes combine the e-process with the exact sign test at the cap by weighted Bonferroni
   * ({@link CAP_TEST_SHARE}), as contrastive's binary search does before it extends a probe.
   */
  private probePValue(refinement: Refinement, probe: ProbeArm): number {
    return Math.min(1, this.engine.rawPValue(probe) * refinement.spans)
  }

  private probeRejected(refinement: Refinement, probe: ProbeArm): boolean {
    return this.probePValue(refinement, probe) <= this.engine.alpha
  }

  /**
   * The significant part whose removal rescues most, once the work done establishes it: after a
   * budget stop, only if every part was decided. Undefined: abstain.
   */
  private culpritPart(): PartArm | undefined {
    const { engine } = this
    if (engine.truncated && this.parts.some((part) => part.state === 'running' || part.state === 'idle')) {
      return undefined
    }
    const rejected = this.partRejected()
    let best: { part: PartArm; effect: number } | undefined
    this.parts.forEach((part, i) => {
      if (!rejected[i]) return
      const effect = engine.compare(part.arm, this.intact).point
      if (best === undefined || effect < best.effect) best = { part, effect }
    })
    return best?.part
  }

  private result(culpritPart: PartArm | undefined): ContextAttributionResult {
    const { factual, options, refinement, engine } = this
    const adjusted = this.partAdjusted()
    const parts = this.parts.map((tested, i): ContextPart => ({
      path: tested.part.path,
      kind: tested.part.kind,
      label: tested.part.label,
      text: tested.part.text,
      ...engine.report(tested, adjusted[i] ?? 1),
      rolloutsUsed: tested.arm.rolloutsRun,
    }))
    const probes = refinement?.probes ?? []
    const design = engine.design(sequentialEffectMethod())
    const intactErrors = this.intact.errors()
    return {
      kind: 'context',
      ...engine.subject(factual),
      step: options.step,
      stepName: factual.steps[options.step]?.name ?? '',
      ablation: options.ablation,
      intact: engine.rate(this.intact),
      ...(intactErrors === undefined ? {} : { intactErrors }),
      parts,
      culprit: culpritPart === undefined ? null : this.culprit(culpritPart, parts),
      refinement: refinement === undefined ? null : this.refinementResult(refinement),
      refinementSkipped: this.refinementSkipped(culpritPart),
      ...engine.spend([...this.parts.map((part) => part.arm), ...probes.map((probe) => probe.arm)]),
      rolloutsPerArm: options.rollouts,
      ...design,
      methods: {
        ...design.methods,
        refinement:
          refinement === undefined
            ? null
            : `binary search over the dyadic ${refinement.units.unit} spans of the culprit part (left half probed, right half descended into when the left decidedly does not rescue, the final span confirmed); each probe's one-sided p-value ${
                options.sequential
                  ? `(e-process and an exact sign test at the cap, split ${1 - CAP_TEST_SHARE} / ${CAP_TEST_SHARE}) `
                  : ''
              }is Bonferroni-adjusted over the ${refinement.spans} spans the search could probe, so the reported span fails to rescue with probability ≤ ${round(1 - options.confidence)}${
                options.sequential
                  ? `; probe effects: ${sequentialEffectMethod(1 - CAP_TEST_SHARE, 'the sign test at the cap')}`
                  : ''
              }`,
      },
      truncated: engine.truncated,
    }
  }

  private culprit(tested: PartArm, parts: readonly ContextPart[]): ContextCulprit {
    const { part } = tested
    const { path, kind, label } = part
    const reported = parts[this.parts.indexOf(tested)] as ContextPart
    const found = this.refinement?.found
    if (found === undefined || this.refinement === undefined) {
      const span = { start: 0, end: part.text.length }
      return { path, kind, label, text: part.text, span, effect: reported.effect, pValue: reported.pValue }
    }
    const span = trimmed(part.text, found.span)
    const field = fieldAt(this.recordedContext(), part, span)
    return {
      path,
      kind,
      label,
      text: part.text.slice(span.start, span.end),
      span,
      ...(field === undefined ? {} : { field }),
      effect: this.engine.effect(found),
      pValue: this.probePValue(this.refinement, found),
    }
  }

  private refinementResult(refinement: Refinement): ContextRefinement {
    return {
      path: refinement.part.part.path,
      unit: refinement.units.unit,
      units: refinement.units.spans.length,
      probes: refinement.probes.map((probe): SpanProbe => ({
        units: { from: probe.from, to: probe.to },
        span: probe.span,
        effect: this.engine.effect(probe),
        pValue: this.probePValue(refinement, probe),
        rescues: this.probeRejected(refinement, probe),
        rolloutsUsed: probe.arm.rolloutsRun,
        ...errorsOf(probe.arm),
      })),
    }
  }
}

/**
 * The units of a part's text, cut leaf by leaf (a sentence in one field of a tool's JSON output is
 * a unit), when it has text of its own and at least two units; else undefined.
 */
function refinableUnits(context: Json, part: ContextPartHandle): TextUnits | undefined {
  if (part.leaves.length === 0) return undefined
  const units = splitLeafUnits(leafTexts(context, part), LEAF_SEPARATOR)
  return units.spans.length >= 2 ? units : undefined
}

/**
 * The arms a context attribution may run, at most: the intact context, one per part, and the
 * probes refining the part with the most units (two per level of its dyadic tree, and a
 * confirmation). Times the rollouts per arm, the most it can spend.
 */
export function contextArms(context: Json, parts: readonly ContextPartHandle[], refine: boolean): number {
  const probes = refine ? Math.max(0, ...parts.map((part) => maxProbes(refinableUnits(context, part)))) : 0
  return 1 + parts.length + probes
}

/**
 * The field of a tool's JSON output that holds `span` of the part's text, when the span lies
 * inside one leaf that has a field name; undefined for plain text or a span across fields.
 */
function fieldAt(context: Json, part: ContextPartHandle, span: TextSpan): string | undefined {
  const texts = leafTexts(context, part)
  let offset = 0
  const touched: string[] = []
  part.leaves.forEach((leaf, i) => {
    const length = (texts[i] as string).length
    if (span.start < offset + length && span.end > offset) touched.push(leaf.field)
    offset += length + LEAF_SEPARATOR.length
  })
  const [field] = touched
  return touched.length === 1 && field !== undefined && field !== '' ? field : undefined
}

/** A probe's `errors` field: present only when some of its replays errored. */
function errorsOf(arm: Arm): Pick<SpanProbe, 'errors'> {
  const errors = arm.errors()
  return errors === undefined ? {} : { errors }
}

/** The most probes refinement spends on `units`: two per level of the dyadic tree, and a confirmation. */
function maxProbes(units: TextUnits | undefined): number {
  return units === undefined ? 0 : 2 * Math.ceil(Math.log2(units.spans.length)) + 1
}

/** `span` without the whitespace at its ends (the span removed keeps it; the culprit names the words). */
function trimmed(text: string, span: TextSpan): TextSpan {
  let { start, end } = span
  while (start < end && /\s/.test(text[start] as string)) start++
  while (end > start && /\s/.test(text[end - 1] as string)) end--
  return { start, end }
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6
}
