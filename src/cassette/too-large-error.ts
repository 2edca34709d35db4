import { CausalReplayError } from '../errors.js'

/**
 * A cassette would be too large to read back (V8's longest string): the message names each call
 * left out, with its size, and says whether the other entries were written.
 */
export class CassetteTooLargeError extends CausalReplayError {
  override name = 'CassetteTooLargeError'
}
