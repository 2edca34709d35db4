import { isAbsolute, relative } from 'node:path'

/**
 * A path as a user would type it: relative to the working directory `cwd` when inside it, else
 * absolute. The caller passes `cwd`, read where the library was entered.
 */
export function displayPath(file: string, cwd: string): string {
  const fromCwd = relative(cwd, file)
  return fromCwd !== '' && !fromCwd.startsWith('..') && !isAbsolute(fromCwd) ? fromCwd : file
}
