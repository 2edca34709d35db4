import type { ReplayErrors } from '../attribute/schema.js'
import { cutEnd } from './context.js'
import { count, plural } from './numbers.js'
import { showControls } from './visible.js'

/** Characters of an error a line quotes: its name and the start of its message. */
const ERROR_WIDTH = 120

/**
 * "16 of 16 replays errored (SyntaxError: Unexpected end of JSON input)": how many replays of an
 * arm errored, of how many it ran, and the first error's first line (cut, control characters
 * escaped: an error message is the agent's text, not ours).
 */
export function erroredReplays(errors: ReplayErrors): string {
  const firstLine = errors.first.split('\n', 1)[0]?.trim() ?? ''
  return `${count(errors.count)} of ${plural(errors.of, 'replay')} errored (${cutEnd(showControls(firstLine), ERROR_WIDTH)})`
}
