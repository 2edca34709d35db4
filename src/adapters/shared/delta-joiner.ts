/**
 * The pieces of streamed texts (a tool call's arguments, as deltas), joined by what they belong to.
 * An adapter adds every piece of a stream first, then rebuilds the stream: the first piece of each
 * text takes the whole text ({@link take}) and the later ones go. A secret split across pieces
 * (`{"api` + `Key":"sk-…"}`) is then whole in one string, where redaction finds it.
 */
export class DeltaJoiner<K> {
  private readonly texts = new Map<K, string>()
  private readonly counts = new Map<K, number>()
  private readonly placed = new Set<K>()

  /** Notes one piece of the text of `key`, in stream order. */
  add(key: K, piece: string): void {
    this.texts.set(key, (this.texts.get(key) ?? '') + piece)
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1)
  }

  /** Whether some text came in more than one piece: otherwise the stream needs no rebuilding. */
  get joinsAny(): boolean {
    for (const count of this.counts.values()) if (count > 1) return true
    return false
  }

  /** At a piece of `key`, in stream order: the whole text at its first piece, undefined at each later one. */
  take(key: K): string | undefined {
    if (this.placed.has(key)) return undefined
    this.placed.add(key)
    return this.texts.get(key)
  }
}
