import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import type { OutsideProgram } from './outside-program.js'

/** The Redis server the shared rate limit's tests start (Debian's package; CI's image installs it). */
export const REDIS_SERVER: OutsideProgram = {
  name: 'redis-server',
  path: '/usr/bin/redis-server',
  install: 'apt-get install redis-server',
}

/** A Redis server of a test's own, on a free port of 127.0.0.1, with nothing saved to disk. */
export interface RunningRedis {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string
  readonly port: number
  /** Kills it at once (SIGKILL), as a crash or a lost network would; resolves when it has exited. */
  kill(): Promise<void>
}

/** A port nothing listens on now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

/** Starts `redis-server` on `port` (default: a free one) and resolves once it accepts connections. */
export async function startRedis(port?: number): Promise<RunningRedis> {
  port ??= await freePort()
  const server = spawn(
    REDIS_SERVER.path,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  await ready(server, port)
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: async () => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
      await exited
    },
  }
}

function ready(server: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let printed = ''
    const timer = setTimeout(
      () => fail(new Error(`redis-server on port ${port} did not start:\n${printed}`)),
      10_000,
    )
    const fail = (error: Error) => {
      clearTimeout(timer)
      server.kill('SIGKILL')
      reject(error)
    }
    server.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk
      if (printed.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve()
      }
    })
    server.stderr?.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk))
    server.once('exit', (code) =>
      fail(new Error(`redis-server on port ${port} exited (${code}):\n${printed}`)),
    )
  })
}
