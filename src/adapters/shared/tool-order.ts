import { AsyncLocalStorage } from 'node:async_hooks'
import type { AgentContext } from '../../agent/types.js'

const tails = new WeakMap<AgentContext, Promise<unknown>>()
const insideToolCall = new AsyncLocalStorage<AgentContext>()

/**
 * Runs `call` after every tool call that was started before it in the same rollout, one at a time.
 *
 * Why: both SDKs execute the tool calls of one model response concurrently, but replay finds an
 * observation by its position among the step's tool calls, and the engine assigns that position
 * when a call starts and records the call when it ends. Run concurrently, two calls would share a
 * position, and the recording order would follow whichever tool finished first. Started in the
 * order the SDK starts them (the order the model listed them), one at a time, the positions are
 * the model's order in every run. A tool that calls another wrapped tool of the same rollout runs
 * the inner call directly, or it would wait for itself.
 */
export function inCallOrder<R>(ctx: AgentContext, call: () => Promise<R>): Promise<R> {
  if (insideToolCall.getStore() === ctx) return call()
  const previous = tails.get(ctx) ?? Promise.resolve()
  const result = previous.then(
    () => insideToolCall.run(ctx, call),
    () => insideToolCall.run(ctx, call),
  )
  // The chain must survive a failed call: the next call waits for settlement, not success.
  tails.set(
    ctx,
    result.catch(() => undefined),
  )
  return result
}
