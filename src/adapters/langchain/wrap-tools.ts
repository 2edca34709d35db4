import type { AgentContext, ToolOptions } from '../../agent/types.js'
import type { Json } from '../../json.js'
import { decodeJson, encodeJson } from '../shared/json-codec.js'
import { toolCallOptions, type WrapToolsOptions } from '../shared/tool-options.js'
import { langchain } from './sdk.js'

/** The method every LangChain tool call reaches, with the input already parsed by the tool's schema. */
type ToolCall = (input: unknown, ...rest: unknown[]) => Promise<unknown>

/**
 * Wraps every LangChain tool of a list (`tool()`, `StructuredTool`, `DynamicTool`) so that each
 * call is an observation of the rollout (`ctx.tool`, under the tool's name): replay can answer it
 * from the recording (`tools: 'recorded'`) or replace it (`replaceObservation`), and
 * `calledTool(name)` sees it. Anything else in the list (an OpenAI tool definition, a provider's
 * built-in tool) passes through.
 *
 * The observation's args are the input after the tool's schema parsed it; its result is what the
 * tool's function returned, before LangChain turns it into a `ToolMessage`, so a replayed call
 * gives the agent the same message. Each wrapped tool is a prototype-linked copy of the original
 * with its own `_call`: name, schema, `returnDirect` and the rest are the original's, which is what
 * `ToolNode` and `bindTools` read.
 *
 * `options.cache: true` lets a cassette in use answer the calls from an earlier run (see `ctx.tool`).
 */
export function wrapTools<Tool>(
  ctx: AgentContext,
  tools: readonly Tool[],
  options: WrapToolsOptions = {},
): Tool[] {
  const callOptions = toolCallOptions(options)
  return tools.map((tool) =>
    langchain.isStructuredTool(tool as never)
      ? (observed(ctx, tool as object & { name: string }, callOptions) as Tool)
      : tool,
  )
}

function observed(ctx: AgentContext, tool: object & { name: string }, callOptions: ToolOptions): object {
  const call = (tool as unknown as { _call: ToolCall })._call
  const copy = Object.create(tool) as { _call: ToolCall }
  copy._call = async (input, ...rest) => {
    const args = encodeJson(input, `The input of tool "${tool.name}"`)
    const result = await ctx.tool<Json | undefined>(
      tool.name,
      args,
      async () => {
        const output = await call.call(tool, input, ...rest)
        return output === undefined ? undefined : encodeJson(output, `The output of tool "${tool.name}"`)
      },
      callOptions,
    )
    return result === undefined ? undefined : decodeJson(result)
  }
  return copy
}
