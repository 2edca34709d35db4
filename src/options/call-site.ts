import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Where the user's code called the library: the stack frames below a public entry point that are
 * not the library's own and not a dependency's (node_modules) or Node's. Captured when a claim or a
 * matcher is made, before any `await`, so the user's line is still on the stack.
 */
export interface CallSite {
  readonly frames: readonly string[]
}

/** The library's own code (src/ and matchers/, built or not), whose frames are not the user's. */
const LIBRARY_DIRS = ['src', 'matchers'].flatMap((dir) => {
  const path = fileURLToPath(new URL(`../../${dir}/`, import.meta.url))
  return [path, pathToFileURL(path).href]
})

/** Frames a call site keeps: the nearest ones of the user's code. */
const KEPT_FRAMES = 3

/**
 * The user's frames below `entry` (a function of the library the user called, directly or through
 * a matcher): library frames above and around it, dependencies (Vitest's expect) and Node's
 * internals are left out.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- any function: it only marks where the stack is cut
export function captureCallSite(entry: Function): CallSite {
  const holder: { stack?: string } = {}
  const limit = Error.stackTraceLimit
  // Vitest's expect adds a dozen frames between a matcher and the test that called it.
  Error.stackTraceLimit = 50
  try {
    Error.captureStackTrace(holder, entry)
  } finally {
    Error.stackTraceLimit = limit
  }
  const frames = (holder.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line) && isUserFrame(line))
  return { frames: frames.slice(0, KEPT_FRAMES) }
}

function isUserFrame(line: string): boolean {
  if (/node_modules|node:internal|\(node:|at node:/.test(line)) return false
  return !LIBRARY_DIRS.some((dir) => line.includes(dir))
}

/**
 * `error` with the user's frames first in its stack, so that the test runner points at the line
 * that made the claim rather than at the library's option parser. Only errors about the user's
 * call (an invalid option or argument) are pointed; any other error, or a call site with no user
 * frame, is returned as it is.
 */
export function pointAtCallSite<E>(error: E, site: CallSite | undefined): E {
  if (site === undefined || site.frames.length === 0) return error
  if (!(error instanceof Error) || error.name !== 'InvalidOptionError') return error
  const stack = error.stack ?? `${error.name}: ${error.message}`
  const lines = stack.split('\n')
  const firstFrame = lines.findIndex((line) => /^\s+at /.test(line))
  const header = firstFrame === -1 ? lines : lines.slice(0, firstFrame)
  const frames = firstFrame === -1 ? [] : lines.slice(firstFrame)
  if (frames[0] === site.frames[0]) return error
  error.stack = [...header, ...site.frames, ...frames.filter((frame) => !site.frames.includes(frame))].join(
    '\n',
  )
  return error
}
