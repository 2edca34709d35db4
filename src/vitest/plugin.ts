import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
// For its augmentation of Vite's Plugin type with the `configureVitest` hook.
import type {} from 'vitest/config'
import type { Vitest } from 'vitest/node'
import type { z } from 'zod'
import { CassetteModeField, CassetteRedactKeysField } from '../cassette/mode.js'
import { BooleanField, NonEmptyPathField } from '../options/fields.js'
import { parseOptions, type StrictOptions } from '../options/parse-options.js'
import { RateLimitField, type RateLimitOptions } from '../rollout/rate-limit.js'
import { resolveRateLimitStore } from '../rollout/rate-limit-store.js'
import { MatcherDefaultsSchema } from '../verdict/options.js'
import { PROVIDE_KEY, resolveReportDir, type CausalReplayProvided } from './provided.js'
import CausalReplayReporter from './reporter.js'
import { startRateLimitCoordinator, type RateLimitCoordinator } from './rate-limit-coordinator.js'

// No defaults here: the plugin hands on only what was set, and the matchers fill in the rest.
const pluginOwnFields = {
  /**
   * Default: `CAUSAL_REPLAY_REPORT_DIR`, else `.causal-replay`, relative to the project root.
   * Artifacts (`<agent>/<test>.json`, `.html`), `report.json` and `index.html` go here.
   */
  reportDir: NonEmptyPathField.optional(),
  /** Default true. Adds the summary reporter next to your other reporters (false: matchers only). */
  reporter: BooleanField.optional(),
  /**
   * Default `'auto'`; `CAUSAL_REPLAY_CACHE` wins. How the matchers use each test file's cassette
   * (`__cassettes__/<file>.cassette.json`): `auto` replays stored model calls and records new
   * ones, `offline` fails a rollout whose call is not stored, `refresh` makes every call again,
   * `off` uses none. See the documentation's Cassettes page.
   */
  cache: CassetteModeField.optional(),
  /**
   * Default: none. Object keys whose values each test file's cassette writes as `"[redacted]"`
   * wherever they occur in a request, a response or a tool value (case-insensitive), e.g.
   * `['authorization', 'apiKey']`. Keys are computed before redaction, so a redacted call still
   * hits; a later run reads the redacted value. (`check` also takes a function: `cache.redact`.)
   */
  cacheRedact: CassetteRedactKeysField.optional(),
  /**
   * Default: none (no limit). Limits on live model calls
   * (`{ requestsPerMinute?, tokensPerMinute?, store? }`) held for the whole run, across workers: a
   * coordinator in the main process owns the limiter and every worker asks it before each live
   * model call (cassette hits do not count). With a `store`
   * (a Redis URL, or `CAUSAL_REPLAY_RATE_LIMIT_STORE`), the limit is shared with every run that
   * names the same store, such as the other shards of a CI matrix; a store that cannot be reached
   * when the run starts fails the run.
   */
  rateLimit: RateLimitField.optional(),
}

// The run defaults every matcher takes (one schema with the claims'), plus the plugin's own;
// annotated so that both halves' doc comments reach the emitted `.d.ts`.
const PluginOptionsSchema: StrictOptions<typeof MatcherDefaultsSchema.shape & typeof pluginOwnFields> =
  MatcherDefaultsSchema.extend(pluginOwnFields)

/** Options of {@link causalReplay}. */
export type CausalReplayPluginOptions = z.input<typeof PluginOptionsSchema>

// The built setup file (dist/src/vitest/plugin.js → dist/matchers/index.js), or the source one when
// the plugin itself runs from source (this repository's own tests).
const SETUP_FILE = [
  fileURLToPath(new URL('../../matchers/index.js', import.meta.url)),
  fileURLToPath(new URL('../../matchers/index.ts', import.meta.url)),
].find((file) => existsSync(file))

// One reporter per Vitest instance, however many projects use the plugin.
const withReporter = new WeakSet<Vitest>()

// One rate-limit coordinator per Vitest instance: the limit holds across its projects too.
const coordinators = new WeakMap<Vitest, Promise<RateLimitCoordinator>>()

/** The run's coordinator, started on first use and closed when Vitest closes (or restarts). */
function runCoordinator(vitest: Vitest, limits: RateLimitOptions): Promise<RateLimitCoordinator> {
  let coordinator = coordinators.get(vitest)
  if (coordinator === undefined) {
    coordinator = startRateLimitCoordinator(limits)
    coordinators.set(vitest, coordinator)
    const started = coordinator
    vitest.onClose(async () => {
      coordinators.delete(vitest)
      await (await started).close()
    })
  }
  return coordinator
}

/**
 * `causalReplay()` from `vitest-causal-replay/plugin`: adds the matchers' setup file, hands the
 * report directory and the default `confidence`, `maxRollouts` and `concurrency` to every worker
 * (`provide`), and adds the summary reporter while keeping the reporters you configured (or
 * Vitest's default one).
 *
 * @example
 * <!-- example:examples/docs/vitest.config.ts -->
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config'
 * import { causalReplay } from 'vitest-causal-replay/plugin'
 *
 * export default defineConfig({ plugins: [causalReplay()] })
 * ```
 * <!-- /example:examples/docs/vitest.config.ts -->
 */
export function causalReplay(pluginOptions: CausalReplayPluginOptions = {}): Plugin {
  const options = parseOptions('causalReplay', PluginOptionsSchema, pluginOptions)
  return {
    name: 'vitest-causal-replay',
    config() {
      // Vite concatenates arrays when merging plugin config, so the user's setup files stay.
      if (SETUP_FILE === undefined)
        throw new Error('vitest-causal-replay: the matchers setup file is missing; reinstall the package.')
      return { test: { setupFiles: [SETUP_FILE] } }
    },
    async configureVitest({ vitest, project }) {
      const { reporter, rateLimit, ...settings } = options
      const reportDir = resolveReportDir(settings.reportDir, vitest.config.root)
      const provided: CausalReplayProvided = {
        ...settings,
        reportDir,
        ...(rateLimit === undefined
          ? {}
          : {
              rateLimitUrl: (
                await runCoordinator(vitest, {
                  ...rateLimit,
                  store: resolveRateLimitStore(rateLimit.store, 'causalReplay', process.env),
                })
              ).url,
            }),
      }
      project.provide(PROVIDE_KEY, provided)
      if (reporter === false || withReporter.has(vitest)) return
      withReporter.add(vitest)
      // Reporters are created after this hook, from this resolved list: adding to it keeps the
      // user's reporters (Vitest has already put 'default' there when none were configured).
      const reporters = vitest.config.reporters
      const present = reporters.some(
        (reporter) =>
          reporter instanceof CausalReplayReporter ||
          (Array.isArray(reporter) && reporter[0] === 'vitest-causal-replay/reporter'),
      )
      if (!present) reporters.push(new CausalReplayReporter({ reportDir }))
    },
  }
}

export default causalReplay

// Type-only, and kept in the emitted .d.ts (an empty `import type {}` is not): a project whose
// config imports the plugin gets the rate matchers typed on `expect(...)` with no `types` entry.
export type { RateMatchers } from './rate-matchers.js'
export type { MatcherDefaults } from '../verdict/options.js'
// The types the plugin's options reach, by name, as the root exports them (`core.CassetteMode`).
export type * as core from '../index.js'
