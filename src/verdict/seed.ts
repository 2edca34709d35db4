import { InvalidOptionError } from '../errors.js'
import type { Environment } from '../options/environment.js'
import { describeReceived } from '../options/received.js'
import { deriveSeed } from '../random/streams.js'
import type { Verdict } from './schema.js'

/** The environment variable that overrides every derived seed of a run: `CAUSAL_REPLAY_SEED=1834512`. */
export const SEED_ENV = 'CAUSAL_REPLAY_SEED'

/**
 * The seed of a gate. An explicit `seed` option wins (it is part of the test's code); otherwise
 * `CAUSAL_REPLAY_SEED` (to rerun a suite on other random numbers, or to replay a printed seed);
 * otherwise a seed derived from the test file (relative to the project root, so it is the same on
 * every machine) and the test's full name: same code, same verdict.
 */
export function chooseSeed(
  option: number | undefined,
  test: { file: string; name: string },
  env: Environment,
): { seed: number; source: Verdict['seedSource'] } {
  if (option !== undefined) return { seed: option, source: 'option' }
  const fromEnv = env[SEED_ENV]
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const seed = Number(fromEnv)
    if (!Number.isSafeInteger(seed)) {
      throw new InvalidOptionError({
        caller: 'vitest-causal-replay',
        option: SEED_ENV,
        expected: 'a safe integer, e.g. 1834512',
        received: describeReceived(fromEnv),
      })
    }
    return { seed, source: 'env' }
  }
  return { seed: testSeed(test.file, test.name), source: 'test' }
}

/** The seed derived from a test's file (forward slashes, relative to the root) and full name. */
export function testSeed(file: string, name: string): number {
  return deriveSeed(0, `test:${file.replaceAll('\\', '/')}::${name}`)
}
