/**
 * The names adapters give the steps of a wrapped model's calls: the n-th call of a model wrapped
 * under `model` is the step `model#n` (1-based, counted per rollout), so a message reads
 * `model#2`, not a third `model` the reader must count. `model` is the step's family: what
 * `swapPolicy` (and each adapter's `swapModel`) matches, so one swap reaches every call.
 */

/** A caller-chosen step name, from which call of the wrapped model this is (1-based, per rollout). */
export type StepNamer = (call: { ordinal: number }) => string

/** The family of a step name: `model` for `model#2`; a name without a `#n` suffix is its own family. */
export function stepFamily(name: string): string {
  return name.replace(/#\d+$/, '')
}

/**
 * A counter of one wrapped model's calls in one rollout, which names each call's step: `family#n`
 * for a family, or what a namer returns for it. Adapters make one per `wrapModel` call, and
 * `wrapModel` is called inside the agent's `run`, once per rollout, so the count restarts there.
 */
export function stepNames(name: string | StepNamer): () => string {
  let ordinal = 0
  return () => {
    ordinal++
    return typeof name === 'string' ? `${name}#${ordinal}` : name({ ordinal })
  }
}
