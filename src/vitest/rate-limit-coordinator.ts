import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { text } from 'node:stream/consumers'
import { RateLimitStoreError } from '../errors.js'
import { openRateLimit } from '../rollout/open-rate-limit.js'
import type { ModelRateLimit, RateLimitOptions } from '../rollout/rate-limit.js'

/** A running coordinator: its URL (handed to the workers) and how to stop it. */
export interface RateLimitCoordinator {
  /** `http://127.0.0.1:<port>/<run token>`. */
  readonly url: string
  /** Stops it: calls still waiting fail, and so do later ones (clearly, naming the URL). */
  close(): Promise<void>
}

/** The paths workers call, after the coordinator's URL. */
export const COORDINATOR_PATHS = { acquire: '/acquire', tokens: '/tokens' } as const

/**
 * The most tokens one call may report: far above any model's context and output together, and far
 * below where the limiter miscounts (it reads a count through its decimal text, so `1e308` counts
 * as 1 token, and a limit so fed no longer holds).
 */
export const MAX_CALL_TOKENS = 100_000_000

/**
 * The plugin's run-wide rate limit: one limiter in the main process, behind an HTTP server on
 * 127.0.0.1 (a random port), that every worker asks before each live model call. `POST /acquire`
 * answers 204 when the call may start (the request waits until then; a worker that gives up
 * closes it and leaves the line); `POST /tokens` with `{ "tokens": n }` counts a finished call's
 * tokens. HTTP rather than Vitest's worker RPC: the RPC is the runner's own and has no channel for
 * plugins, while every worker pool (forks, threads, vmThreads) can reach a local port. Any local
 * process can reach it too: the URL carries a random token of the run, and a request without it
 * is answered 404, so another process cannot take the run's places in line or report its tokens.
 * With a `store`, the limiter behind it keeps the limit in Redis, shared with other runs: the store
 * is connected here (a store that cannot be reached rejects, failing the run), and one it loses
 * later is answered 503 with its message, which the worker's call fails with.
 *
 * @param limits the limits, with the store resolved (the environment's included)
 * @param windowMs default 60 000: the length of "a minute" (tests shorten it).
 */
export async function startRateLimitCoordinator(
  limits: RateLimitOptions,
  windowMs = 60_000,
): Promise<RateLimitCoordinator> {
  const held = await openRateLimit(limits, windowMs)
  const token = randomBytes(16).toString('hex')
  const server = createServer((request, response) => {
    handle(held.limit, `/${token}`, request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        const status = error instanceof RateLimitStoreError ? 503 : 500
        response.writeHead(status, { 'content-type': 'text/plain' })
      }
      response.end(error instanceof Error ? error.message : String(error))
    })
  })
  // Connections stay open between calls (keep-alive): they must not hold the run open at its end.
  server.unref()
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
  } catch (error) {
    await held.close()
    throw error
  }
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/${token}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await held.close()
    },
  }
}

async function handle(
  limit: ModelRateLimit,
  base: string,
  request: IncomingMessage,
  response: ServerResponse,
) {
  if (request.method === 'POST' && request.url === `${base}${COORDINATOR_PATHS.acquire}`) {
    // The worker closes the request when its rollout ends while waiting: its place is given up.
    const gaveUp = new AbortController()
    response.on('close', () => gaveUp.abort(new Error('The worker stopped waiting.')))
    request.resume()
    try {
      await limit.acquire(gaveUp.signal)
    } catch (error) {
      if (gaveUp.signal.aborted) return
      throw error
    }
    response.writeHead(204).end()
    return
  }
  if (request.method === 'POST' && request.url === `${base}${COORDINATOR_PATHS.tokens}`) {
    const tokens = (JSON.parse(await text(request)) as { tokens?: unknown }).tokens
    if (typeof tokens !== 'number' || !(tokens >= 0 && tokens <= MAX_CALL_TOKENS)) {
      response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end(`tokens must be a number from 0 to ${MAX_CALL_TOKENS}`)
      return
    }
    await limit.recordTokens(tokens)
    response.writeHead(204).end()
    return
  }
  response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
}
