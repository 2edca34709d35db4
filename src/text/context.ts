import type { Json } from '../json.js'
import { modelMessages } from './model-messages.js'
import { showOnOneLine } from './visible.js'

/** How much of a context a terminal message shows. */
export interface ContextLimits {
  /** Default 100. Characters per line. */
  width?: number
  /** Default 6 (10 for a model call's messages). Lines in all (a message list shows its latest messages). */
  lines?: number
}

/**
 * A context shortened for a terminal: one line per message of a chat-style list (`role: "content"`,
 * the latest ones, since the decision follows from the end of the conversation), one line per
 * message of a model call's prompt (`6 tool result, get_hotel_reviews: {…}`, numbered as the
 * context parts are, then the tools it offered), one line per key of any other object, one line for
 * anything else. Long lines are cut in the middle, keeping both the start and the end, where an
 * injected instruction usually sits.
 */
export function shortenContext(context: Json, limits: ContextLimits = {}): string[] {
  const width = limits.width ?? 100
  const maxLines = Math.max(2, limits.lines ?? 6)
  let lines: string[]
  const model = modelMessages(context)
  if (model !== undefined) {
    // A prompt of a few turns is read whole: its messages are what the context attribution names.
    const messageLines = Math.max(3, limits.lines ?? 10) - (model.tools.length > 0 ? 1 : 0)
    lines = model.messages.map((message) => `${message.number} ${message.role}: ${message.summary}`)
    if (lines.length > messageLines) {
      const hidden = lines.length - (messageLines - 1)
      lines = [`… ${hidden} earlier message${hidden === 1 ? '' : 's'}`, ...lines.slice(hidden)]
    }
    if (model.tools.length > 0) lines.push(`tools: ${model.tools.join(', ')}`)
  } else if (Array.isArray(context)) {
    lines = context.map((item) => {
      if (isMessage(item)) return `${String(item.role)}: ${JSON.stringify(item.content ?? null)}`
      return JSON.stringify(item)
    })
    if (lines.length > maxLines) {
      const hidden = lines.length - (maxLines - 1)
      lines = [`… ${hidden} earlier item${hidden === 1 ? '' : 's'}`, ...lines.slice(hidden)]
    }
  } else if (context !== null && typeof context === 'object') {
    const keys = Object.keys(context)
    lines = keys.map((key) => `${key}: ${JSON.stringify(context[key] ?? null)}`)
    if (lines.length > maxLines) {
      const hidden = lines.length - (maxLines - 1)
      lines = [...lines.slice(0, maxLines - 1), `… ${hidden} more key${hidden === 1 ? '' : 's'}`]
    }
  } else {
    lines = [JSON.stringify(context)]
  }
  // Escaped before the cut: a bidi control in a quoted message would reorder the line around it,
  // and a line break in a tool's name would start a line of its own.
  return lines.map((line) => cutMiddle(showOnOneLine(line), width))
}

function isMessage(value: Json): value is { role: Json; content?: Json } {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.role === 'string'
  )
}

/**
 * Cuts `text` to about `width` characters, keeping two thirds from the start and one third from
 * the end. The cut falls between whole code points and whole escapes (`\uXXXX`, `\n`, `\\`, as
 * `showName` makes them), so it never leaves half an emoji or a `\u20` that reads as something else.
 */
export function cutMiddle(text: string, width: number): string {
  if (text.length <= width) return text
  const keep = width - 1
  const pieces = text.match(UNCUTTABLE) ?? []
  const head = takeWhileFits(pieces, Math.ceil((keep * 2) / 3)).join('')
  const tail = takeWhileFits([...pieces].reverse(), keep - head.length)
    .reverse()
    .join('')
  return `${head}…${tail}`
}

/**
 * Cuts `text` to at most `width` characters, ending in an ellipsis when cut: for a quoted excerpt
 * that reads from its start. Like {@link cutMiddle}, it never splits a code point or an escape.
 */
export function cutEnd(text: string, width: number): string {
  if (text.length <= width) return text
  return `${takeWhileFits(text.match(UNCUTTABLE) ?? [], width - 1).join('')}…`
}

/** A `\uXXXX` escape, a two-character escape (`\n`, `\\`) or one code point: the pieces a cut keeps whole. */
const UNCUTTABLE = /\\u[0-9a-fA-F]{4}|\\[\s\S]|[\s\S]/gu

/** The leading pieces whose total length fits in `width`. */
function takeWhileFits(pieces: readonly string[], width: number): string[] {
  const taken: string[] = []
  let length = 0
  for (const piece of pieces) {
    if (length + piece.length > width) break
    taken.push(piece)
    length += piece.length
  }
  return taken
}
