import { z } from 'zod'
import { InvalidOptionError } from '../errors.js'
import type { Environment } from '../options/environment.js'
import { expecting, functionField, NonEmptyPathField } from '../options/fields.js'
import type { CassetteRedactor } from './redact.js'

/**
 * How a cassette is used. `auto`: a stored call is replayed, a new one is made and recorded;
 * `offline`: a call not in the cassette fails its rollout (nothing is called); `refresh`: every
 * call is made again and overwrites its entry; `off`: no cassette.
 */
export type CassetteMode = 'auto' | 'offline' | 'refresh' | 'off'

/** Every mode, in the order messages list them. */
export const CASSETTE_MODES: readonly CassetteMode[] = ['auto', 'offline', 'refresh', 'off']

/** The environment variable that sets the mode for a run, over any configured one. */
export const CASSETTE_MODE_ENV = 'CAUSAL_REPLAY_CACHE'

/**
 * What a save writes, from Vitest's snapshot update state: `merge` (locally: new entries are added),
 * `none` (CI: misses are called and used, nothing is written), `prune` (`vitest -u`: new entries
 * are added and entries the run did not use are dropped).
 */
export type CassetteWrite = 'merge' | 'none' | 'prune'

/**
 * The mode of a run: `CAUSAL_REPLAY_CACHE` when set (so a one-off `refresh` or `offline` run needs
 * no edit), else the configured mode, else `fallback`. A bad value names where it came from.
 */
export function resolveCassetteMode(
  configured: CassetteMode | undefined,
  fallback: CassetteMode,
  caller: string,
  env: Environment,
): CassetteMode {
  const raw = env[CASSETTE_MODE_ENV]?.trim()
  if (raw !== undefined && raw !== '') {
    if (isCassetteMode(raw)) return raw
    throw new InvalidOptionError({
      caller,
      option: CASSETTE_MODE_ENV,
      expected: CASSETTE_MODES.map((mode) => `'${mode}'`).join(', '),
      received: JSON.stringify(raw),
    })
  }
  return configured ?? fallback
}

/** True for one of {@link CASSETTE_MODES}. */
export function isCassetteMode(value: unknown): value is CassetteMode {
  return typeof value === 'string' && (CASSETTE_MODES as readonly string[]).includes(value)
}

/** What a save writes under Vitest's update state (`all`: `-u`; `none`: CI; `new`: local). */
export function writeForUpdateState(update: 'all' | 'new' | 'none'): CassetteWrite {
  return update === 'all' ? 'prune' : update === 'none' ? 'none' : 'merge'
}

/** The `cache` mode option of the plugin and of `check`. */
export const CassetteModeField = expecting(
  z.enum(['auto', 'offline', 'refresh', 'off']),
  "'auto', 'offline', 'refresh' or 'off'",
)

/** The keys a cassette redacts (the plugin's `cacheRedact`: keys only, as it crosses to the workers). */
export const CassetteRedactKeysField = expecting(
  z.array(z.string().min(1)),
  'an array of non-empty key names, e.g. ["authorization", "apiKey"]',
)

/** `redact` of `check`'s `cache` option: keys, or a function `(value, part) => value`. */
export const CassetteRedactField = z.union([
  CassetteRedactKeysField.readonly(),
  functionField<CassetteRedactor>('a function (value, part) => value, or an array of key names'),
])

/** `check`'s `cache` option: the file, the mode (default `'auto'`) and what to redact (default none). */
export const CassetteOptionField = z.strictObject({
  file: NonEmptyPathField,
  mode: CassetteModeField.optional(),
  redact: CassetteRedactField.optional(),
})
