import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const PACKAGE_NAME = 'vitest-causal-replay'

/**
 * The version in this package's package.json. It is found by walking up from this file, because
 * the file sits at a different depth when built (dist/src/cli) than when run from source (src/cli).
 */
export async function packageVersion(from: string = fileURLToPath(import.meta.url)): Promise<string> {
  let directory = dirname(from)
  for (;;) {
    const manifest = await readManifest(join(directory, 'package.json'))
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version
    const parent = dirname(directory)
    if (parent === directory)
      throw new Error(`Cannot find the package.json of ${PACKAGE_NAME} above ${from}.`)
    directory = parent
  }
}

async function readManifest(file: string): Promise<{ name?: unknown; version?: unknown } | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as { name?: unknown; version?: unknown }
  } catch {
    return undefined
  }
}
