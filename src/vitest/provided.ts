import { isAbsolute, resolve } from 'node:path'
import { inject } from 'vitest'
import type { CassetteMode } from '../cassette/mode.js'
import type { Environment } from '../options/environment.js'
import type { MatcherDefaults } from '../verdict/options.js'

/** What the plugin hands to every worker (`project.provide`), read by the matchers with `inject`. */
export interface CausalReplayProvided extends MatcherDefaults {
  /** The report directory, absolute. */
  reportDir: string
  /** The plugin's `cache` mode, when set (`CAUSAL_REPLAY_CACHE` still wins in the worker). */
  cache?: CassetteMode | undefined
  /** The plugin's `cacheRedact` keys, when set. */
  cacheRedact?: string[] | undefined
  /** The URL of the plugin's rate-limit coordinator, when the plugin sets a `rateLimit`. */
  rateLimitUrl?: string
}

/** The `provide` / `inject` key. */
export const PROVIDE_KEY = 'causalReplay'

declare module 'vitest' {
  interface ProvidedContext {
    causalReplay: CausalReplayProvided | undefined
  }
}

/** The environment variable naming the report directory when the plugin does not (setup-file use). */
export const REPORT_DIR_ENV = 'CAUSAL_REPLAY_REPORT_DIR'

/** The report directory's default, relative to the project root. */
export const DEFAULT_REPORT_DIR = '.causal-replay'

/**
 * The plugin's settings in a worker, or, without the plugin, the report directory from
 * `CAUSAL_REPLAY_REPORT_DIR` or `.causal-replay` under the project root (the reporter resolves its
 * own the same way, so both agree).
 */
export function providedSettings(projectRoot: string, env: Environment): CausalReplayProvided {
  let provided: CausalReplayProvided | undefined
  try {
    provided = inject(PROVIDE_KEY)
  } catch {
    // inject throws outside a Vitest worker; the matchers then run on defaults.
    provided = undefined
  }
  if (provided !== undefined) return provided
  return { reportDir: resolveReportDir(undefined, projectRoot, env) }
}

/** An explicit directory, else `CAUSAL_REPLAY_REPORT_DIR`, else `.causal-replay`; relative ones against `root`. */
export function resolveReportDir(explicit: string | undefined, root: string, env = process.env): string {
  const chosen = explicit ?? (env[REPORT_DIR_ENV]?.trim() || DEFAULT_REPORT_DIR)
  return isAbsolute(chosen) ? chosen : resolve(root, chosen)
}
