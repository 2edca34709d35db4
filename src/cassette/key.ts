import { hash } from 'node:crypto'
import { canonicalJson, type Json } from '../json.js'

/**
 * The random stream a step draws from: the run seed, the rollout index and the step index. A
 * judge's call (a model call that scores a finished run) names its judge too, and `step` is then
 * the call's number among that judge's calls on the run (see `judgeStream`).
 */
export interface StepStream {
  seed: number
  rollout: number
  step: number
  judge?: string
}

/** Where a tool call sits: its step's stream plus its position among the step's tool calls. */
export interface ToolStream extends StepStream {
  position: number
}

/**
 * What determines a step's sample: the step's name, the model it calls (undefined for a user step
 * that opted in), the request (the context the policy decides from, possibly edited) and its stream.
 */
export interface StepCallKey {
  name: string
  model: string | undefined
  request: Json | undefined
  stream: StepStream
}

/** What determines a cached tool result: the tool, its arguments and where the call sits. */
export interface ToolCallKey {
  tool: string
  args: Json
  stream: ToolStream
}

/**
 * The cassette key of a step: `step:` and the first 32 hex digits of SHA-256 over the canonical
 * JSON (object keys sorted) of name, model, request and stream. Two requests that differ only in
 * key order get one key; any other difference (a prompt word, a tool, a temperature) another.
 */
export function stepKey(call: StepCallKey): string {
  const identity: Json = {
    kind: 'step',
    name: call.name,
    model: call.model ?? null,
    request: call.request ?? null,
    stream: { ...call.stream },
  }
  return `step:${digest(identity)}`
}

/** The cassette key of a tool call: `tool:` and the digest of tool name, arguments and position. */
export function toolKey(call: ToolCallKey): string {
  const identity: Json = { kind: 'tool', tool: call.tool, args: call.args, stream: { ...call.stream } }
  return `tool:${digest(identity)}`
}

function digest(identity: Json): string {
  return hash('sha256', canonicalJson(identity), 'hex').slice(0, 32)
}
