import type { Artifact } from '../verdict/schema.js'

// A page shows an agent's values several times (a tool result on its step's card, among the tool
// results before the locus, inside the next step's context, in the embedded JSON), so a 10 MB tool
// result once made a 72 MB page that took over a minute to open. Each long text is therefore
// shown up to a length, and the first time only: the JSON artifact keeps every value whole.

/** The most characters of one text a page shows. */
export const SHOWN_CHARACTERS = 20_000

/** The most characters shown of a long text the page already showed elsewhere. */
export const REPEATED_CHARACTERS = 500

/** What {@link boundArtifact} returns. */
export interface BoundedArtifact {
  /** The artifact with every long text cut, for the page and its embedded JSON. */
  artifact: Artifact
  /** How many texts were cut. */
  cuts: number
}

/**
 * `artifact` with every string longer than {@link SHOWN_CHARACTERS} cut there (a text met again
 * at {@link REPEATED_CHARACTERS}), followed by a marker that says how long it was and that the whole
 * value is in `jsonFile`. Everything else is kept as it is (own keys named `__proto__` included).
 */
export function boundArtifact(artifact: Artifact, jsonFile: string): BoundedArtifact {
  const seen = new Set<string>()
  let cuts = 0
  const bound = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (value.length <= SHOWN_CHARACTERS) return value
      cuts++
      const repeated = seen.has(value)
      seen.add(value)
      const kept = cutAt(value, repeated ? REPEATED_CHARACTERS : SHOWN_CHARACTERS)
      const again = repeated ? ', the same text as elsewhere on this page' : ''
      return `${kept}… [cut: ${value.length.toLocaleString('en-US')} characters in all${again}; the whole value is in ${jsonFile}]`
    }
    if (value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return value.map(bound)
    const copy: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, {
        value: bound(item),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return copy
  }
  return { artifact: bound(artifact) as Artifact, cuts }
}

/** The first `length` characters of `text`, one fewer when the cut would split a surrogate pair. */
function cutAt(text: string, length: number): string {
  const last = text.charCodeAt(length - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length)
}
