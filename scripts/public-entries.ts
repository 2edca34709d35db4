// The package's public entries, read from package.json `exports`: the names users import and the
// TypeScript sources behind them. The API reference documents these, and the documentation's code
// blocks show an example's relative import of one of them as that name.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root directory. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** A public entry: the name users import it by, and its TypeScript source. */
export interface PublicEntry {
  /** `vitest-causal-replay`, `vitest-causal-replay/stats`, … */
  readonly importName: string
  /** The source file, relative to the repository (`src/stats/index.ts`). */
  readonly source: string
}

interface ExportTarget {
  readonly types?: string
}

/** Every entry of package.json `exports` that has types, in `exports` order. */
export async function publicEntries(): Promise<PublicEntry[]> {
  const manifest = JSON.parse(await readFile(resolve(ROOT, 'package.json'), 'utf8')) as {
    name: string
    exports: Record<string, ExportTarget | string>
  }
  const entries: PublicEntry[] = []
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string' || target.types === undefined) continue
    const match = /^\.\/dist\/(.+)\.d\.ts$/.exec(target.types)
    if (match === null) {
      throw new Error(`package.json exports["${subpath}"].types is not under ./dist/: ${target.types}`)
    }
    entries.push({ importName: manifest.name + subpath.slice(1), source: `${match[1]}.ts` })
  }
  return entries
}
