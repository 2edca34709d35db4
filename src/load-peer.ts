import { MissingPeerDependencyError } from './errors.js'

/** An optional peer dependency and what needs it, for the message when it is missing. */
export interface PeerDependency {
  /** The npm package, e.g. `ai`. */
  readonly packageName: string
  /** The semver range the library supports, e.g. `^6.0.0`. */
  readonly range: string
  /** What needs it, the message's subject: an adapter's import path (`vitest-causal-replay/ai-sdk`), an option. */
  readonly neededBy: string
}

/**
 * Imports an optional peer dependency (an adapter's SDK, the Redis client of a shared rate limit),
 * or throws a {@link MissingPeerDependencyError} that says which package to install. The core never
 * imports them statically: what needs one imports it here, dynamically, because a failed static
 * `import` surfaces as Node's bare "Cannot find package" with no word on what to do. Errors other
 * than "not found" (a broken install, a syntax error inside the package) propagate unchanged.
 *
 * `importer` exists for tests; it defaults to a dynamic `import()` resolved from this file.
 */
export async function loadPeer<Module>(
  peer: PeerDependency,
  importer: (specifier: string) => Promise<unknown> = (specifier) => import(specifier),
): Promise<Module> {
  try {
    return (await importer(peer.packageName)) as Module
  } catch (error) {
    if (!isModuleNotFound(error, peer.packageName)) throw error
    throw new MissingPeerDependencyError(
      `${peer.neededBy} needs the package "${peer.packageName}" (${peer.range}), an optional peer dependency that is not installed. ` +
        `Install it next to vitest-causal-replay: npm install --save-dev ${peer.packageName}`,
      peer.packageName,
    )
  }
}

/** True when `error` says that `packageName` itself (not one of its own dependencies) was not found. */
function isModuleNotFound(error: unknown, packageName: string): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false
  // Node words it "Cannot find package 'ai' imported from …"; bundlers and test runners vary, but
  // all quote the specifier. A missing dependency *of* the SDK names that other package instead.
  return typeof message === 'string' && new RegExp(`['"\`]${escapeRegExp(packageName)}['"\`/]`).test(message)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
