import { CausalReplayError } from '../errors.js'

/** An `offline` cassette has no entry for a call: the rollout ends with this error instead of calling it. */
export class CassetteMissError extends CausalReplayError {
  override name = 'CassetteMissError'
}
