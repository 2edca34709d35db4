import type { FunctionTool, Tool } from '@openai/agents'
import type { AgentContext, ToolOptions } from '../../agent/types.js'
import type { Json } from '../../json.js'
import { decodeJson, encodeJson } from '../shared/json-codec.js'
import { toolCallOptions, type WrapToolsOptions } from '../shared/tool-options.js'

type Invoke = FunctionTool['invoke']

/**
 * Wraps every function tool of an Agents SDK tool list so that each call is an observation of the
 * rollout (`ctx.tool`, under the tool's name): replay can answer it from the recording
 * (`tools: 'recorded'`) or replace it (`replaceObservation`), and `calledTool(name)` sees it.
 * Hosted, computer, shell and apply-patch tools pass through: they run at the provider or need
 * their own harness.
 *
 * The observation's args are the call's JSON arguments (parsed; the raw text if it is not JSON),
 * its result what the tool returned to the model, after the SDK's own input parsing and error
 * handling (a tool that throws gives the model an error message, and that message is recorded).
 * The runner runs the tool calls of one response concurrently; each takes its position when it
 * starts (the model's order), so replay finds it there whichever finishes first. Do not wrap an agent-as-tool whose own model is wrapped: answering it
 * from the recording would skip its model steps and shift every later step index.
 *
 * `options.cache: true` lets a cassette in use answer the calls from an earlier run (see `ctx.tool`).
 */
export function wrapTools<T extends Tool<never>>(
  ctx: AgentContext,
  tools: readonly T[],
  options: WrapToolsOptions = {},
): T[] {
  const callOptions = toolCallOptions(options)
  return tools.map((tool) =>
    tool.type === 'function' ? (observed(ctx, tool as FunctionTool, callOptions) as unknown as T) : tool,
  )
}

function observed(ctx: AgentContext, tool: FunctionTool, callOptions: ToolOptions): FunctionTool {
  const invoke: Invoke = async (runContext, input, details) => {
    const result = await ctx.tool<Json | undefined>(
      tool.name,
      argumentsOf(input),
      async () => {
        const output: unknown = await tool.invoke(runContext, input, details)
        return output === undefined ? undefined : encodeJson(output, `The output of tool "${tool.name}"`)
      },
      callOptions,
    )
    return result === undefined ? undefined : decodeJson(result)
  }
  // Same prototype and fields (guardrails, approval, timeout settings), another invoke.
  return Object.assign(Object.create(Object.getPrototypeOf(tool) as object) as FunctionTool, tool, { invoke })
}

function argumentsOf(input: string): Json {
  try {
    return JSON.parse(input) as Json
  } catch {
    return input
  }
}
