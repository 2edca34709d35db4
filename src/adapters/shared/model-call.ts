import { z } from 'zod'
import type { StepView } from '../../agent/types.js'
import { InvalidOptionError, ReplayDivergenceError } from '../../errors.js'
import type { Json, JsonObject } from '../../json.js'
import { expecting } from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import { describeReceived } from '../../options/received.js'
import { stepNames, type StepNamer } from '../../trajectory/step-name.js'
import { decodeJson } from './json-codec.js'

/**
 * The family of a wrapped model's steps unless `name` says otherwise (its calls are the steps
 * `model#1`, `model#2`, …); `swapModel` swaps this family unless told another.
 */
export const DEFAULT_MODEL_STEP = 'model'

const swapModelOptionFields = {
  /**
   * Default `'model'`. The family of the steps `model` answers: the `name` given to `wrapModel`,
   * so `'model'` reaches `model#1`, `model#2`, … (an exact step name reaches that step only).
   */
  name: expecting(z.string().min(1), 'a non-empty string').default(DEFAULT_MODEL_STEP),
}
/** The `name` of a `swapModel`: the family of steps the swapped-in model answers. */
export const SwappedFamilyField: (typeof swapModelOptionFields)['name'] = swapModelOptionFields.name
const SwapModelOptionsSchema: StrictOptions<typeof swapModelOptionFields> =
  z.strictObject(swapModelOptionFields)

/** Options of `swapModel` (the AI SDK's and LangChain's). */
export type SwapModelOptions = z.input<typeof SwapModelOptionsSchema>

/** The family `swapModel` swaps: its `name` option, checked, else {@link DEFAULT_MODEL_STEP}. */
export function swappedFamily(options: SwapModelOptions): string {
  return parseOptions('swapModel', SwapModelOptionsSchema, options).name
}

/**
 * The `name` option of an adapter's `wrapModel`: a family (`model` names the calls `model#1`,
 * `model#2`, …) or a function naming each call. Only `typeof` can be checked for a function; what
 * it returns is checked at each call by {@link modelStepNames}.
 */
export const ModelStepNameField = expecting(
  z.custom<string | StepNamer>(
    (value) => typeof value === 'function' || (typeof value === 'string' && value.length > 0),
  ),
  'a non-empty string or a function ({ ordinal }) => string',
)

/** The step names of one wrapped model's calls (see {@link modelStepNames}). */
export interface ModelStepNames {
  /** Runs one call's step under the call's name; resolves to the name and the step's action. */
  step<A>(run: (stepName: string) => Promise<A>): Promise<{ stepName: string; action: A }>
}

/**
 * The step name of each call of one wrapped model, in call order: `name#1`, `name#2`, … for a
 * family, or what a namer returns. A call whose step fails records no step (the engine gives its
 * index back), so it gives its name back too: the SDK's retry of it, or the next call, takes that
 * name, and a run whose first attempt hit a 429 names its steps like a replay that did not. A
 * namer that returns no usable name fails the call (and so the rollout) with an error naming
 * `name`, rather than recording a step nobody can address.
 */
export function modelStepNames(name: string | StepNamer, caller: string): ModelStepNames {
  const fresh = stepNames(typeof name === 'string' ? name : checkedNamer(name, caller))
  // Earliest first. Only the last step can be given back without failing the rollout, so in a run
  // that goes on there is at most one here at a time.
  const givenBack: string[] = []
  return {
    async step(run) {
      const stepName = givenBack.shift() ?? fresh()
      try {
        return { stepName, action: await run(stepName) }
      } catch (error) {
        givenBack.push(stepName)
        throw error
      }
    },
  }
}

function checkedNamer(namer: StepNamer, caller: string): StepNamer {
  return (call) => {
    const stepName: unknown = namer(call)
    if (typeof stepName !== 'string' || stepName === '') {
      throw new InvalidOptionError({
        caller,
        option: 'name',
        expected: `a function that returns a non-empty step name (call ${call.ordinal})`,
        received: describeReceived(stepName),
      })
    }
    return stepName
  }
}

/** The live call's signal and the rollout's: the call stops when either aborts. */
export function callSignal(live: AbortSignal | undefined, view: StepView): AbortSignal {
  return live === undefined ? view.signal : AbortSignal.any([live, view.signal])
}

/** `json` when it is a JSON object (not an array, not null), else undefined. */
export function asObject(json: Json | undefined): JsonObject | undefined {
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? json : undefined
}

/**
 * A model step's recorded action, checked to be a call of the kind the agent now makes (each
 * adapter records `{ call, … }`). A held step recorded from a plain call but reached from a
 * streaming one (or the reverse) means the agent code changed since the recording; `hint` says
 * in the SDK's words what usually changed.
 */
export function recordedModelCall<Call extends string>(
  action: Json,
  call: Call,
  stepName: string,
  hint: string,
): JsonObject {
  const object = asObject(action)
  if (object?.call !== call) {
    const recorded = typeof object?.call === 'string' ? `a ${object.call} call` : 'no model call'
    throw new ReplayDivergenceError(
      `Model step "${stepName}" is a ${call} call, but its action records ${recorded}: the agent calls the model differently than in the recording (${hint}).`,
    )
  }
  return object
}

/**
 * A model step's (possibly edited) context, decoded: an object whose `call` is one of `calls`,
 * and its other fields. Anything else is an error that names the step (`{sdk} model step k
 * "name"`) and, by `shape`, what the context should look like; the adapter checks its own fields.
 */
export function readModelContext<Call extends string>(
  view: StepView,
  sdk: string,
  calls: readonly [Call, Call],
  shape: string,
): { step: string; call: Call; fields: Record<string, unknown> } {
  const step = `${sdk} model step ${view.index} "${view.name}"`
  const decoded = view.context === undefined ? undefined : decodeJson(view.context)
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
    throw new InvalidOptionError({
      caller: step,
      option: 'context',
      expected: `an object ${shape}`,
      received: describeReceived(decoded),
      hint: 'Check what the editContext edit returns.',
    })
  }
  const { call, ...fields } = decoded as Record<string, unknown>
  if (!calls.includes(call as Call)) {
    throw new InvalidOptionError({
      caller: step,
      option: 'context.call',
      expected: `'${calls[0]}' or '${calls[1]}'`,
      received: describeReceived(call),
    })
  }
  return { step, call: call as Call, fields }
}
