import { basename, dirname, join } from 'node:path'

/** Where the matchers keep a test file's cassette: `__cassettes__/<file name>.cassette.json` beside it. */
export function cassettePath(testFile: string): string {
  return join(dirname(testFile), '__cassettes__', `${basename(testFile)}.cassette.json`)
}
