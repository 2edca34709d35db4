import { isAbsolute, relative } from 'node:path'

/** A path as a user would type it: relative to the working directory when inside it, else absolute. */
export function displayPath(file: string): string {
  const fromCwd = relative(process.cwd(), file)
  return fromCwd !== '' && !fromCwd.startsWith('..') && !isAbsolute(fromCwd) ? fromCwd : file
}
