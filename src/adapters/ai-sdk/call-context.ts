import type { StepView } from '../../agent/types.js'
import { InvalidOptionError } from '../../errors.js'
import type { Json } from '../../json.js'
import { describeReceived } from '../../options/received.js'
import { encodeJson } from '../shared/json-codec.js'
import { readModelContext } from '../shared/model-call.js'
import type { CallOptions } from './types.js'

/** Which model method a step answers. */
export type ModelCall = 'generate' | 'stream'

/**
 * The call options a model decides from: they go into the step's context (and its digest). The
 * `seed` comes from the step's stream, so it is not context; the abort signal, the HTTP headers and
 * `includeRawChunks` change how the call travels, not what it decides.
 */
const DECISION_OPTIONS = [
  'prompt',
  'maxOutputTokens',
  'temperature',
  'stopSequences',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'responseFormat',
  'tools',
  'toolChoice',
  'providerOptions',
] as const satisfies ReadonlyArray<keyof CallOptions>
const NOT_PASSED_ON = new Set<string>([...DECISION_OPTIONS, 'seed', 'abortSignal'])

/**
 * The context of a model step: `{ call, prompt, …decision options }` as JSON (file bytes become
 * base64 tags, see `encodeJson`). `editContext` edits this value; the model then sees the edit.
 */
export function callContext(call: ModelCall, options: CallOptions): Json {
  const context: Record<string, unknown> = { call }
  for (const key of DECISION_OPTIONS) if (options[key] !== undefined) context[key] = options[key]
  return encodeJson(context, 'The prompt of a model call')
}

/** The options of the live call that are not context (headers, `includeRawChunks`, future fields). */
export function passedOnOptions(options: CallOptions): Partial<CallOptions> {
  return Object.fromEntries(
    Object.entries(options).filter(([key]) => !NOT_PASSED_ON.has(key)),
  ) as Partial<CallOptions>
}

/** The call a step's (possibly edited) context describes; a context of another shape names the step. */
export function readCallContext(view: StepView): { call: ModelCall; options: CallOptions } {
  const {
    step,
    call,
    fields: options,
  } = readModelContext<ModelCall>(view, 'AI SDK', ['generate', 'stream'], '{ call, prompt, … }')
  if (!Array.isArray(options.prompt)) {
    throw new InvalidOptionError({
      caller: step,
      option: 'context.prompt',
      expected: 'the message array of the call',
      received: describeReceived(options.prompt),
    })
  }
  return { call, options: options as CallOptions }
}
