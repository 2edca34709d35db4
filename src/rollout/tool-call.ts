import type { ToolOptions } from '../agent/types.js'
import type { Cassette } from '../cassette/cassette.js'
import type { ToolCallKey } from '../cassette/key.js'
import { MaxStepsExceededError } from '../errors.js'
import { copyJson, type Json } from '../json.js'
import type { Observation } from '../trajectory/schema.js'
import { errorMessage } from './classify-error.js'
import type { TrajectoryRecorder } from './recorder.js'

/** The message an observation keeps when the rollout ended while its tool call was still running. */
const TOOL_STILL_RUNNING = 'The rollout ended before this tool call returned.'

/**
 * `ctx.tool`: answers the call as the plan says (recorded, replaced, or live), live ones from the
 * cassette when it holds them, and records the observation on the step the call follows.
 */
export async function runTool<R extends Json | undefined>(
  recorder: TrajectoryRecorder,
  name: string,
  args: Json,
  impl: (args: Json) => R | Promise<R>,
  options?: ToolOptions,
): Promise<R> {
  recorder.checkAlive()
  const { settings } = recorder
  if (recorder.countToolCall() > settings.execution.maxSteps) {
    throw new MaxStepsExceededError(
      `The rollout made more than maxSteps (${settings.execution.maxSteps}) tool calls; the agent seems to loop (last tool "${name}").`,
    )
  }
  const recordedArgs = copyJson(args, `The arguments of tool call "${name}"`)
  const stepIndex = recorder.currentStep
  const observations = recorder.observationsAfter(stepIndex)
  const position = observations.length
  let positionOfTool = 0
  for (const observation of observations) if (observation.tool === name) positionOfTool++
  const directive = settings.plan.tool({ step: stepIndex, position, positionOfTool, tool: name })
  if (directive.kind === 'recorded') {
    const result = directive.recorded.result
    recorder.observe(observations, observation(name, recordedArgs, result, 'recorded'))
    return (result === undefined ? undefined : copyJson(result, `The recorded result of "${name}"`)) as R
  }
  if (directive.kind === 'replaced') {
    recorder.observe(observations, observation(name, recordedArgs, directive.result, 'replaced'))
    return copyJson(directive.result, `The replacement result of "${name}"`) as R
  }
  let miss: { cassette: Cassette; key: string; call: ToolCallKey } | undefined
  let reserved = false
  const { cassette } = recorder
  if (cassette !== undefined && options?.cache === true) {
    const call: ToolCallKey = {
      tool: name,
      args: recordedArgs,
      stream: { seed: settings.seed, rollout: settings.rollout, step: stepIndex, position },
    }
    let lookup = cassette.findTool(call)
    if (lookup.kind === 'pending') {
      // Another rollout is making this call: hold the position (parallel calls of this step
      // may land meanwhile), and take its answer.
      recorder.observe(observations, {
        tool: name,
        args: recordedArgs,
        error: TOOL_STILL_RUNNING,
        source: 'live',
      })
      reserved = true
      while (lookup.kind === 'pending') {
        await lookup.settled
        recorder.checkAlive()
        lookup = cassette.findTool(call)
      }
    }
    if (lookup.kind === 'hit') {
      const stored = observation(name, recordedArgs, lookup.entry.result, 'live')
      if (reserved) recorder.settleObservation(observations, position, stored)
      else recorder.observe(observations, stored)
      const { result } = lookup.entry
      return (result === undefined ? undefined : copyJson(result, `The stored result of "${name}"`)) as R
    }
    miss = { cassette, key: lookup.key, call }
  }
  // Reserve the position now (see the recorder's comment); it stays marked if the rollout ends first.
  if (!reserved)
    recorder.observe(observations, {
      tool: name,
      args: recordedArgs,
      error: TOOL_STILL_RUNNING,
      source: 'live',
    })
  let result: R
  try {
    result = await impl(args)
  } catch (error) {
    miss?.cassette.release(miss.key)
    // Read only for a rollout still running: the message may run the thrown value's own getters.
    if (!recorder.finished)
      recorder.settleObservation(observations, position, {
        tool: name,
        args: recordedArgs,
        error: errorMessage(error),
        source: 'live',
      })
    throw error
  }
  try {
    recorder.checkAlive()
  } catch (error) {
    miss?.cassette.release(miss.key)
    throw error
  }
  const recordedResult =
    result === undefined ? undefined : copyJson(result, `The result of tool call "${name}"`)
  recorder.settleObservation(observations, position, observation(name, recordedArgs, recordedResult, 'live'))
  miss?.cassette.recordTool(miss.key, miss.call, recordedResult)
  return result
}

function observation(
  tool: string,
  args: Json,
  result: Json | undefined,
  source: Observation['source'],
): Observation {
  return result === undefined ? { tool, args, source } : { tool, args, result, source }
}
