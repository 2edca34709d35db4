import type { ModelRequest } from '@openai/agents'
import type { StepView } from '../../agent/types.js'
import { InvalidOptionError } from '../../errors.js'
import type { Json } from '../../json.js'
import { describeReceived } from '../../options/received.js'
import { encodeJson } from '../shared/json-codec.js'
import { readModelContext } from '../shared/model-call.js'

/** Which model method a step answers. */
export type ModelCall = 'response' | 'stream'

/**
 * The request fields a model decides from: they go into the step's context (and its digest). The
 * abort signal, the tracing flag and the runner's internal fields change how the call travels, not
 * what it decides; `modelSettings.retry` is runtime-only (it holds a function) and stays out too.
 */
const DECISION_FIELDS = [
  'systemInstructions',
  'input',
  'previousResponseId',
  'conversationId',
  'modelSettings',
  'tools',
  'toolsExplicitlyProvided',
  'outputType',
  'handoffs',
  'prompt',
  'overridePromptModel',
] as const satisfies ReadonlyArray<keyof ModelRequest>

/**
 * The context of a model step: `{ call, systemInstructions, input, modelSettings, tools, … }` as
 * JSON. `editContext` edits this value; the model then sees the edited request.
 */
export function requestContext(call: ModelCall, request: ModelRequest): Json {
  const context: Record<string, unknown> = { call }
  for (const key of DECISION_FIELDS) {
    if (request[key] === undefined) continue
    if (key === 'modelSettings') {
      const { retry: _retry, ...settings } = request.modelSettings
      context.modelSettings = settings
    } else {
      context[key] = request[key]
    }
  }
  return encodeJson(context, 'The request of a model call')
}

/** The live request without its decision fields: what is passed on around the context. */
export function passedOnFields(request: ModelRequest): Partial<ModelRequest> {
  const rest: Record<string, unknown> = { ...request }
  for (const key of DECISION_FIELDS) delete rest[key]
  return rest as Partial<ModelRequest>
}

/** The request a step's (possibly edited) context describes; a context of another shape names the step. */
export function readRequestContext(view: StepView): {
  call: ModelCall
  request: Partial<ModelRequest> & Pick<ModelRequest, 'input'>
} {
  const {
    step,
    call,
    fields: request,
  } = readModelContext<ModelCall>(view, 'Agents SDK', ['response', 'stream'], '{ call, input, … }')
  if (typeof request.input !== 'string' && !Array.isArray(request.input)) {
    throw new InvalidOptionError({
      caller: step,
      option: 'context.input',
      expected: 'the model input (a string or an item array)',
      received: describeReceived(request.input),
    })
  }
  return { call, request: request as Partial<ModelRequest> & Pick<ModelRequest, 'input'> }
}
