// What the three adapters' scripted models share: the script a test writes (what the model answers,
// given the conversation and a seeded stream), the stream itself, and the checks of what a script
// returns. Each adapter's `scriptedModel` only turns an SDK's request into a `ScriptedCall` and a
// `ScriptedTurn` into that SDK's response.
import seedrandom from 'seedrandom'
import { CausalReplayError } from '../../errors.js'
import { copyJson, type Json, type JsonObject } from '../../json.js'

/** What a script sees of one model call. */
export interface ScriptedCall {
  /** The text of the conversation's user messages, in order, one per line. */
  readonly userText: string
  /**
   * The result the conversation's last message brings back from a tool, or `undefined` when the
   * last message is not a tool result (the first call of a run).
   */
  readonly lastToolResult: ScriptedToolResult | undefined
  /**
   * Uniform draws in [0, 1) from a stream seeded by the call's seed (seedrandom's alea): a wrapped
   * model's seed is its step's, so a rollout's step draws the same numbers on every run and every
   * replay, as the library's own streams do.
   */
  readonly random: () => number
  /** The call's seed, as `wrapModel` sent it. */
  readonly seed: number
}

/** A tool's result as the model reads it. */
export interface ScriptedToolResult {
  /** The tool's name. */
  readonly toolName: string
  /** The result: its JSON value, or its text when the SDK carries text that is not JSON. */
  readonly value: Json
}

/**
 * A tool call a script asks for: the tool's name and its input, an object of JSON values (checked
 * when the script returns it). Typed loosely so that a script whose branches call tools with
 * different fields type-checks without `exactOptionalPropertyTypes`.
 */
export interface ScriptedToolCall {
  /** The tool's name, as the agent's tools name it. */
  readonly name: string
  /** The tool's arguments. */
  readonly input: { readonly [field: string]: unknown }
}

/** What the model answers: a reply (the run's last turn) or a call of one tool. */
export type ScriptedTurn = { readonly reply: string } | { readonly toolCall: ScriptedToolCall }

/** A script's answer, checked: a tool call's input is a JSON object. */
export type CheckedTurn =
  { readonly reply: string } | { readonly toolCall: { name: string; input: JsonObject } }

/**
 * A scripted model's behaviour: its answer to a call. Every choice that should vary from run to run
 * is drawn from `call.random`, so runs differ like a sampled model's while each stays reproducible.
 */
export type Script = (call: ScriptedCall) => ScriptedTurn

/** Options of every adapter's `scriptedModel`. */
export interface ScriptedModelOptions {
  /** Default `'scripted-model'`. The model id it reports, which cassettes and price tables key on. */
  readonly modelId?: string
}

/** The model id of a scripted model that was given none. */
export const DEFAULT_SCRIPTED_MODEL_ID = 'scripted-model'

/**
 * Runs `script` on one call and checks what it returned. `seed` is what the SDK's request carried
 * (`undefined` when it carried none), and `source` says where the SDK carries it, for the error.
 */
export function runScript(
  script: Script,
  modelId: string,
  call: Omit<ScriptedCall, 'random' | 'seed'>,
  seed: unknown,
  source: string,
): CheckedTurn {
  if (typeof seed !== 'number' || !Number.isFinite(seed)) {
    throw new CausalReplayError(
      `The scripted model "${modelId}" was called without a seed (${source}): it draws its answers from the call's seed, which wrapModel sends. Call it through wrapModel.`,
    )
  }
  const random = seedrandom.alea(String(seed))
  return checkedTurn(script({ ...call, random: () => random(), seed }), modelId)
}

/** `turn`, when it is a reply or a tool call with a name and a JSON object as input; else a clear error. */
function checkedTurn(turn: unknown, modelId: string): CheckedTurn {
  const where = `The script of the scripted model "${modelId}"`
  if (typeof turn !== 'object' || turn === null) {
    throw new CausalReplayError(`${where} returned ${String(turn)}: return { reply } or { toolCall }.`)
  }
  if ('reply' in turn) {
    if (typeof turn.reply !== 'string')
      throw new CausalReplayError(`${where} returned a reply that is not a string.`)
    return { reply: turn.reply }
  }
  if (!('toolCall' in turn) || typeof turn.toolCall !== 'object' || turn.toolCall === null) {
    throw new CausalReplayError(`${where} returned neither { reply } nor { toolCall }.`)
  }
  const { name, input } = turn.toolCall as { name?: unknown; input?: unknown }
  if (typeof name !== 'string' || name === '') {
    throw new CausalReplayError(`${where} returned a toolCall without a name (toolCall.name).`)
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new CausalReplayError(`${where} returned toolCall.input of "${name}" that is not an object.`)
  }
  return { toolCall: { name, input: copyJson(input, `${where}: toolCall.input of "${name}"`) as JsonObject } }
}

/** A tool result that an SDK carries as text: its JSON value when the text is JSON, else the text. */
export function toolResultValue(text: string): Json {
  try {
    return JSON.parse(text) as Json
  } catch {
    return text
  }
}

/** The id of a scripted tool call or response: the seed, so a replayed call has the recorded id. */
export function scriptedId(prefix: string, seed: number): string {
  return `${prefix}_${(seed >>> 0).toString(36)}`
}

/**
 * Token counts a provider would report, so cost lines and price tables have numbers to show: a
 * token for every four characters of the request and of the answer.
 */
export function scriptedUsage(request: unknown, turn: CheckedTurn): { input: number; output: number } {
  return {
    input: Math.ceil(JSON.stringify(request).length / 4),
    output: Math.ceil(JSON.stringify(turn).length / 4),
  }
}
