import { resolve } from 'node:path'
import { displayPath } from '../files/display-path.js'
import { canonicalJson, type Json, type JsonObject } from '../json.js'
import { readCassetteFile, saveCassetteFile } from './cassette-file.js'
import { stepKey, toolKey, type StepCallKey, type ToolCallKey } from './key.js'
import { CassetteMissError } from './miss-error.js'
import { resolveCassetteMode, type CassetteMode, type CassetteWrite } from './mode.js'
import { describeRequestDiff, requestDistance } from './request-diff.js'
import type { CassetteEntry, StepEntry, ToolEntry } from './schema.js'

/** Options of {@link openCassette}. */
export interface OpenCassetteOptions {
  /** Default `'auto'`; `CAUSAL_REPLAY_CACHE`, when set, wins. See {@link CassetteMode}. */
  mode?: CassetteMode
  /**
   * Default `'merge'` (`'none'` when `CI` is set). What {@link Cassette.save} writes: `merge` adds
   * this run's entries, `prune` also drops entries this run did not use, `none` writes nothing.
   */
  write?: CassetteWrite
}

/** What a cassette did in this process, for messages and the bench. */
export interface CassetteCounts {
  /** Calls answered from the cassette. */
  hits: number
  /** Calls made (and recorded, unless writing is off). */
  misses: number
}

/** A lookup: the call's key, and its stored entry on a hit. */
export interface CassetteLookup<E extends CassetteEntry> {
  key: string
  entry: E | undefined
}

/**
 * An open cassette file: the model calls (and opted-in tool calls) of earlier runs by key, and the
 * calls this run made. The engine asks it before calling a policy ({@link findStep}) and tells it
 * what a call returned ({@link recordStep}); {@link save} merges this run into the file.
 *
 * ```ts
 * const cassette = await openCassette('__cassettes__/agent.cassette.json')
 * const result = await contrastive(withCassette(agent, cassette), factual, { isBad })
 * await cassette.save()
 * ```
 */
export class Cassette {
  /** The cassette's path, absolute. */
  readonly file: string
  readonly mode: Exclude<CassetteMode, 'off'>
  readonly write: CassetteWrite
  /** Hits and misses so far. */
  readonly counts: CassetteCounts = { hits: 0, misses: 0 }
  private readonly recorded = new Map<string, CassetteEntry>()
  private readonly used = new Set<string>()

  /** Use {@link openCassette}, which reads the file. */
  constructor(
    file: string,
    mode: Exclude<CassetteMode, 'off'>,
    write: CassetteWrite,
    private readonly stored: ReadonlyMap<string, CassetteEntry>,
  ) {
    this.file = resolve(file)
    this.mode = mode
    this.write = write
  }

  /**
   * The stored entry of a step call (a hit), or none (a miss: call the policy, then
   * {@link recordStep}). `refresh` never hits; `offline` throws a {@link CassetteMissError} on a
   * miss that names the step and shows how its request differs from the nearest stored entry.
   */
  findStep(call: StepCallKey): CassetteLookup<StepEntry> {
    return this.find(stepKey(call), 'step', () => this.describeStepMiss(call))
  }

  /** Stores what a missed step's policy returned (with the step's meta, restored on later hits). */
  recordStep(key: string, call: StepCallKey, action: Json, meta: JsonObject | undefined): void {
    const entry: StepEntry = {
      kind: 'step',
      name: call.name,
      stream: { ...call.stream },
      summary: summaryOf(action, meta),
      action,
    }
    if (call.model !== undefined) entry.model = call.model
    if (call.request !== undefined) entry.request = call.request
    if (meta !== undefined) entry.meta = meta
    this.recorded.set(key, entry)
    this.used.add(key)
  }

  /** The stored result of a tool call, as {@link findStep} for steps. */
  findTool(call: ToolCallKey): CassetteLookup<ToolEntry> {
    return this.find(
      toolKey(call),
      'tool',
      () =>
        `Cassette miss (offline): tool call "${call.tool}" at step ${call.stream.step}, position ${call.stream.position} (seed ${call.stream.seed}, rollout ${call.stream.rollout}) with args ${shortJson(call.args)} is not in ${displayPath(this.file)}. Run once without CAUSAL_REPLAY_CACHE=offline to record it.`,
    )
  }

  /**
   * The lookup both kinds of call share: `refresh` never hits, a hit is counted and kept as used,
   * and an `offline` miss throws with `describeMiss()` (built only then: the nearest-entry diff of a
   * step miss reads every entry).
   */
  private find<K extends CassetteEntry['kind']>(
    key: string,
    kind: K,
    describeMiss: () => string,
  ): CassetteLookup<Extract<CassetteEntry, { kind: K }>> {
    const entry = this.mode === 'refresh' ? undefined : (this.recorded.get(key) ?? this.stored.get(key))
    if (entry?.kind === kind) {
      this.used.add(key)
      this.counts.hits++
      return { key, entry: entry as Extract<CassetteEntry, { kind: K }> }
    }
    if (this.mode === 'offline') throw new CassetteMissError(describeMiss())
    this.counts.misses++
    return { key, entry: undefined }
  }

  /** Stores a tool call's result (`undefined`: the tool returned nothing). */
  recordTool(key: string, call: ToolCallKey, result: Json | undefined): void {
    const entry: ToolEntry = { kind: 'tool', tool: call.tool, stream: { ...call.stream }, args: call.args }
    if (result !== undefined) entry.result = result
    this.recorded.set(key, entry)
    this.used.add(key)
  }

  /**
   * Writes this run's entries into the file, merged under a lock with what is on disk (see
   * `saveCassetteFile`). `prune: false` turns a `prune` write into a `merge` (a run that did not
   * use every test of the file must not drop the entries of the tests it skipped). Returns whether
   * the file changed; nothing is written when `write` is `none`.
   */
  async save(options: { prune?: boolean } = {}): Promise<boolean> {
    if (this.write === 'none') return false
    if (this.recorded.size === 0 && this.write !== 'prune') return false
    const prune = this.write === 'prune' && options.prune !== false
    return saveCassetteFile(this.file, { put: this.recorded, keep: prune ? this.used : undefined })
  }

  private describeStepMiss(call: StepCallKey): string {
    const { stream } = call
    const model = call.model === undefined ? '' : `model ${call.model}, `
    const head = `Cassette miss (offline): step ${stream.step} "${call.name}" (${model}seed ${stream.seed}, rollout ${stream.rollout}) is not in ${displayPath(this.file)}.`
    const nearest = this.nearestStep(call)
    const tail = 'Run once without CAUSAL_REPLAY_CACHE=offline to record it.'
    if (nearest === undefined) return `${head}\nNo stored call of step "${call.name}". ${tail}`
    const same = sameStream(nearest.stream, call.stream)
      ? 'same stream'
      : `rollout ${nearest.stream.rollout}, step ${nearest.stream.step}`
    const lines = describeRequestDiff(nearest.request, call.request)
    const changes =
      lines.length === 0
        ? ['  (same request: the stream or the model differs)']
        : lines.map((line) => `  ${line}`)
    return [`${head}`, `Its request differs from the nearest stored one (${same}):`, ...changes, tail].join(
      '\n',
    )
  }

  /** The stored call of the same step name nearest to `call`: same stream first, then fewest changed paths. */
  private nearestStep(call: StepCallKey): StepEntry | undefined {
    let best: { entry: StepEntry; score: number } | undefined
    for (const entry of this.stored.values()) {
      if (entry.kind !== 'step' || entry.name !== call.name) continue
      const score =
        (sameStream(entry.stream, call.stream) ? 0 : 1_000_000) + requestDistance(entry.request, call.request)
      if (best === undefined || score < best.score) best = { entry, score }
    }
    return best?.entry
  }
}

/**
 * Opens the cassette at `file` (a missing file is an empty cassette; a bad one throws an
 * `InvalidFileError` naming the field). Null when the mode, after `CAUSAL_REPLAY_CACHE`, is `off`.
 */
export async function openCassette(
  file: string,
  options: OpenCassetteOptions = {},
): Promise<Cassette | null> {
  const mode = resolveCassetteMode(options.mode, 'auto', 'openCassette')
  if (mode === 'off') return null
  const write = options.write ?? (process.env['CI'] ? 'none' : 'merge')
  return new Cassette(file, mode, write, await readCassetteFile(resolve(file)))
}

function sameStream(a: StepEntry['stream'], b: StepEntry['stream']): boolean {
  return a.seed === b.seed && a.rollout === b.rollout && a.step === b.step
}

/** The entry's one line: the adapter's summary when it gave one, else the start of the action. */
function summaryOf(action: Json, meta: JsonObject | undefined): string {
  const summary = meta?.['summary']
  return typeof summary === 'string' ? summary : shortJson(action)
}

function shortJson(value: Json): string {
  const text = canonicalJson(value)
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`
}
