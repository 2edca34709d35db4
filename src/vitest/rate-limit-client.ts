import { request } from 'node:http'
import { CausalReplayError, RateLimitStoreError } from '../errors.js'
import type { ModelRateLimit } from '../rollout/rate-limit.js'
import { COORDINATOR_PATHS } from './rate-limit-coordinator.js'

/**
 * The run-wide rate limit as a worker sees it: every live model call asks the plugin's coordinator
 * (see `startRateLimitCoordinator`) before it starts, and reports its tokens after. A coordinator
 * that cannot be reached fails the call with an error naming its URL (an error outcome of the
 * rollout), rather than letting calls through unlimited.
 */
export class CoordinatedRateLimit implements ModelRateLimit {
  constructor(readonly url: string) {}

  async acquire(signal: AbortSignal): Promise<void> {
    await this.post(COORDINATOR_PATHS.acquire, '', signal)
  }

  async recordTokens(tokens: number): Promise<void> {
    if (tokens > 0) await this.post(COORDINATOR_PATHS.tokens, JSON.stringify({ tokens }), undefined)
  }

  // node:http rather than fetch: a test environment (happy-dom, jsdom) may replace the global
  // fetch with one that applies browser rules to a localhost call.
  private post(path: string, body: string, signal: AbortSignal | undefined): Promise<void> {
    const url = `${this.url}${path}`
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error)
        return
      }
      const call = request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' }, ...(signal ? { signal } : {}) },
        (response) => {
          let text = ''
          response.setEncoding('utf8')
          response.on('data', (chunk: string) => (text += chunk))
          response.on('end', () => {
            if (response.statusCode === 204) resolve()
            // The coordinator's store (Redis) is lost: its message names it.
            else if (response.statusCode === 503) reject(new RateLimitStoreError(text))
            else
              reject(this.failure(`answered ${response.statusCode ?? '?'}${text === '' ? '' : `: ${text}`}`))
          })
        },
      )
      call.on('error', (error) => {
        if (signal?.aborted) reject(signal.reason as Error)
        else reject(this.failure(`could not be reached (${error.message})`))
      })
      call.end(body)
    })
  }

  private failure(what: string): CausalReplayError {
    // Without the run's token: a message ends up in logs, and the token is what keeps others out.
    return new CausalReplayError(
      `The rate-limit coordinator at ${new URL(this.url).origin} ${what}: the plugin's rateLimit cannot be held, so the model call was not made (the coordinator runs in the Vitest main process while the run lasts).`,
    )
  }
}

const byUrl = new Map<string, CoordinatedRateLimit>()

/** The coordinator client for `url`, one per worker. */
export function coordinatedRateLimit(url: string): CoordinatedRateLimit {
  let limit = byUrl.get(url)
  if (limit === undefined) byUrl.set(url, (limit = new CoordinatedRateLimit(url)))
  return limit
}
