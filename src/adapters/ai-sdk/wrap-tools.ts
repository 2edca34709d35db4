import type { ToolExecutionOptions, ToolSet } from 'ai'
import type { AgentContext, ToolOptions } from '../../agent/types.js'
import type { Json } from '../../json.js'
import { decodeJson, encodeJson } from '../shared/json-codec.js'
import { toolCallOptions, type WrapToolsOptions } from '../shared/tool-options.js'

type Execute = (input: unknown, options: ToolExecutionOptions) => unknown

/**
 * Wraps the `execute` of every tool of an AI SDK tool set so that each call is an observation of
 * the rollout (`ctx.tool`, under the tool's key): replay can answer it from the recording
 * (`tools: 'recorded'`) or replace it (`replaceObservation`), and `calledTool(name)` sees it.
 * Tools without `execute` (provider-executed tools, tools answered by the client) pass through.
 *
 * Inputs and outputs are recorded as JSON and revived (see `encodeJson`). A tool that returns an
 * async iterable (preliminary results) is read to its end and its last value is the observation;
 * the SDK then gets that final value only, with no preliminary results. The SDK runs the tool calls
 * of one response concurrently; each takes its position when it starts (the model's order), so
 * replay finds it there whichever finishes first.
 *
 * `options.cache: true` lets a cassette in use answer the calls from an earlier run (see `ctx.tool`).
 */
export function wrapTools<Tools extends ToolSet>(
  ctx: AgentContext,
  tools: Tools,
  options: WrapToolsOptions = {},
): Tools {
  const callOptions = toolCallOptions(options)
  const wrapped: Record<string, unknown> = {}
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute as Execute | undefined
    wrapped[name] =
      typeof execute !== 'function' ? tool : { ...tool, execute: observed(ctx, name, execute, callOptions) }
  }
  return wrapped as Tools
}

function observed(ctx: AgentContext, name: string, execute: Execute, callOptions: ToolOptions): Execute {
  return async (input, options) => {
    const args = encodeJson(input, `The input of tool "${name}"`)
    const result = await ctx.tool<Json | undefined>(
      name,
      args,
      async () => {
        const output = await finalValue(execute(input, options))
        return output === undefined ? undefined : encodeJson(output, `The output of tool "${name}"`)
      },
      callOptions,
    )
    return result === undefined ? undefined : decodeJson(result)
  }
}

/** The value a tool produced: awaited, and for an async iterable its last item (undefined if none). */
async function finalValue(output: unknown): Promise<unknown> {
  if (output !== null && typeof output === 'object' && Symbol.asyncIterator in output) {
    let last: unknown
    for await (const item of output as AsyncIterable<unknown>) last = item
    return last
  }
  return await output
}
