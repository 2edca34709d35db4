/**
 * The process environment as the library reads it: `CI`, `CAUSAL_REPLAY_SEED`, `CAUSAL_REPLAY_CACHE`,
 * `CAUSAL_REPLAY_RATE_LIMIT_STORE`, `CAUSAL_REPLAY_SHARD`. Read once where the library is entered, in the top layer (the
 * matchers, the plugin, and the public `check` and `openCassette`), and passed down with the call's
 * other settings: nothing past that boundary reads `process.env`, so a test or a caller can hand
 * any environment in.
 */
export type Environment = Readonly<Record<string, string | undefined>>

/** True when `CI` is set (to anything but the empty string): baselines and cassettes are then not written. */
export function isCi(env: Environment): boolean {
  return Boolean(env['CI'])
}
