// The adapters' stream joins, for the reports of a redacting check. A module of its own, free of
// the SDKs: the reports read a recorded action without loading any of them.
import type { Json } from '../json.js'
import { joinToolInputDeltas } from './ai-sdk/stream-join.js'
import { joinToolCallChunks } from './langchain/stream-join.js'
import { joinArgumentDeltas } from './openai-agents/stream-join.js'

/** Every adapter's stream join (its `joinStreamed` step option). Each leaves another adapter's action as it is. */
const STREAM_JOINS: readonly ((action: Json) => Json)[] = [
  joinToolInputDeltas,
  joinArgumentDeltas,
  joinToolCallChunks,
]

/**
 * A recorded action with a streamed call's argument pieces joined, as the adapter that recorded it
 * joins them for a redacting cassette; any other action as it is (the same object).
 */
export function joinStreamedAction(action: Json): Json {
  for (const join of STREAM_JOINS) {
    const joined = join(action)
    if (joined !== action) return joined
  }
  return action
}
