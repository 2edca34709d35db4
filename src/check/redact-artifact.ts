import { joinStreamedAction } from '../adapters/stream-joins.js'
import type { ContextAttributionResult } from '../attribute/context-schema.js'
import type { CassettePart, CassetteRedactor } from '../cassette/redact.js'
import { RemovedTexts } from '../cassette/removed-texts.js'
import type { Json, JsonObject } from '../json.js'
import type { Observation, Step, TrajectoryData } from '../trajectory/schema.js'
import type { Artifact } from '../verdict/schema.js'

/**
 * The artifact as the reports get it, for a check whose cassette redacts: every recorded value of
 * the failing run (input, output, contexts, actions, meta, tool arguments and results) and every
 * attributed action goes through `redact` as the cassette's values do (an action first has a
 * streamed call's argument pieces joined, as its adapter joins them for the file), then every text derived
 * from those values before they were redacted (summaries, context parts' texts, error messages)
 * has what the redaction removed replaced by `[redacted]`. The verdict's numbers, names and labels
 * are left as they are. The JSON artifact, the HTML page, Vitest's attachment of it and the
 * verdict message are all made from this.
 */
export function redactArtifact(artifact: Artifact, redact: CassetteRedactor): Artifact {
  const removed = new RemovedTexts()
  const value: MapJson = (raw, part) => {
    const whole = part === 'action' ? joinStreamedAction(raw) : raw
    const redacted = redact(whole, part)
    removed.note(whole, redacted)
    return redacted
  }
  // Values first, so that every removed text is known before any text is scrubbed (a context may
  // quote, as plain text, what a tool result held under a redacted key).
  const keep = (raw: string) => raw
  const redacted = mapData(artifact, value, keep)
  const text = (raw: string) => removed.scrub(raw)
  const out = mapData(redacted, (raw) => removed.scrubJson(raw), text)
  out.verdict = {
    ...artifact.verdict,
    errors: {
      ...artifact.verdict.errors,
      examples: artifact.verdict.errors.examples.map((example) => ({
        ...example,
        error: { ...example.error, message: text(example.error.message) },
      })),
    },
  }
  if (artifact.attributionError != null)
    out.attributionError = { ...artifact.attributionError, message: text(artifact.attributionError.message) }
  if (artifact.contextAttributionError != null) {
    out.contextAttributionError = {
      ...artifact.contextAttributionError,
      message: text(artifact.contextAttributionError.message),
    }
  }
  if (artifact.contextAttribution != null)
    out.contextAttribution = scrubContextAttribution(artifact.contextAttribution, text)
  return out
}

/** What is done to each recorded value, by part; and to each free text (a tool's or a rollout's error). */
type MapJson = (raw: Json, part: CassettePart) => Json
type MapText = (raw: string) => string

/** The artifact with `json` applied to the failing run's values and the attributed actions, `text` to its errors. */
function mapData(artifact: Artifact, json: MapJson, text: MapText): Artifact {
  const { failing, contrastive, shapley } = artifact
  return {
    ...artifact,
    failing: failing === null ? null : mapTrajectory(failing, json, text),
    contrastive:
      contrastive === null
        ? null
        : {
            ...contrastive,
            steps: contrastive.steps.map((step) => ({ ...step, action: json(step.action, 'action') })),
          },
    shapley:
      shapley === null
        ? null
        : {
            ...shapley,
            steps: shapley.steps.map((step) => ({ ...step, action: json(step.action, 'action') })),
          },
  }
}

function mapTrajectory(trajectory: TrajectoryData, json: MapJson, text: MapText): TrajectoryData {
  const observation = (call: Observation): Observation => {
    const out: Observation = { ...call, args: json(call.args, 'tool-args') }
    if (call.result !== undefined) out.result = json(call.result, 'tool-result')
    if (call.error !== undefined) out.error = text(call.error)
    return out
  }
  const out: TrajectoryData = {
    ...trajectory,
    input: json(trajectory.input, 'input'),
    preamble: trajectory.preamble.map(observation),
    steps: trajectory.steps.map((step) => {
      const mapped: Step = {
        ...step,
        action: json(step.action, 'action'),
        observations: step.observations.map(observation),
      }
      if (step.context !== undefined) mapped.context = json(step.context, 'request')
      if (step.meta !== undefined) {
        // A redactor that returns something else than an object drops the meta, as in the cassette.
        const meta = json(step.meta, 'meta')
        if (isObject(meta)) mapped.meta = meta
        else delete mapped.meta
      }
      return mapped
    }),
  }
  if (trajectory.output !== undefined) out.output = json(trajectory.output, 'output')
  if (trajectory.error !== undefined)
    out.error = { ...trajectory.error, message: text(trajectory.error.message) }
  return out
}

/**
 * The parts' labels and texts scrubbed. The culprit's span is moved to where its text sits in the
 * scrubbed part; when a removed text crossed the span's edge, the span is left empty.
 */
function scrubContextAttribution(
  result: ContextAttributionResult,
  text: (raw: string) => string,
): ContextAttributionResult {
  const { culprit } = result
  const out: ContextAttributionResult = {
    ...result,
    parts: result.parts.map((part) => ({ ...part, label: text(part.label), text: text(part.text) })),
  }
  if (culprit === null) return out
  const part = result.parts.find((candidate) => samePath(candidate.path, culprit.path))
  const scrubbedText = text(culprit.text)
  let span = culprit.span
  if (part !== undefined) {
    const before = text(part.text.slice(0, span.start))
    const after = text(part.text.slice(span.end))
    const whole = text(part.text)
    span =
      before + scrubbedText + after === whole
        ? { start: before.length, end: before.length + scrubbedText.length }
        : { start: 0, end: 0 }
  }
  out.culprit = { ...culprit, label: text(culprit.label), text: scrubbedText, span }
  return out
}

function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i])
}

function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
