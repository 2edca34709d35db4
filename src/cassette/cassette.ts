import { resolve } from 'node:path'
import { z } from 'zod'
import type { StepOptions } from '../agent/types.js'
import { displayPath } from '../files/display-path.js'
import type { Json, JsonObject } from '../json.js'
import { isCi, type Environment } from '../options/environment.js'
import { oneOf } from '../options/fields.js'
import type { StrictOptions } from '../options/parse-options.js'
import { readCassetteFile, saveCassetteFile } from './cassette-file.js'
import { stepKey, toolKey, type StepCallKey, type ToolCallKey } from './key.js'
import { CassetteMissError } from './miss-error.js'
import {
  CassetteModeField,
  CassetteRedactField,
  resolveCassetteMode,
  type CassetteMode,
  type CassetteWrite,
} from './mode.js'
import { describeRequestDiff, requestDistance } from './request-diff.js'
import { redactorOf, type CassetteRedact, type CassettePart, type CassetteRedactor } from './redact.js'
import { redactEntry, type EntryRebuild } from './redact-entry.js'
import type { CassetteEntry, StepEntry, ToolEntry } from './schema.js'
import { shortJson, stepSummary } from './summary.js'

const openCassetteOptionsFields = {
  /** Default `'auto'`; `CAUSAL_REPLAY_CACHE`, when set, wins. See {@link CassetteMode}. */
  mode: CassetteModeField.optional(),
  /**
   * Default `'merge'` (`'none'` when `CI` is set). What {@link Cassette.save} writes: `merge` adds
   * this run's entries, `prune` also drops entries this run did not use, `none` writes nothing.
   */
  write: oneOf(['merge', 'none', 'prune'] as const satisfies readonly CassetteWrite[]).optional(),
  /**
   * Default: none. What to keep out of the file: object keys whose values are stored as
   * `"[redacted]"` wherever they occur in a request, a response or a tool value (case-insensitive,
   * also inside strings that hold JSON, such as tool-call arguments), or a function that returns
   * what to store of each part. Applied when the file is written, before the entries' summaries
   * are made: keys are computed from the unredacted request, so a redacted call still hits on the
   * next run, and that run reads the redacted response. The reports of a check that uses the
   * cassette are redacted the same way.
   */
  redact: CassetteRedactField.optional(),
}
/** The options of {@link openCassette}. */
export const OpenCassetteOptionsSchema: StrictOptions<typeof openCassetteOptionsFields> =
  z.strictObject(openCassetteOptionsFields)
/** Options of {@link openCassette}. */
export type OpenCassetteOptions = z.input<typeof OpenCassetteOptionsSchema>

/** What a cassette did in this process, for messages and the bench. */
export interface CassetteCounts {
  /** Calls answered from the file (recorded by an earlier run). */
  hits: number
  /** Calls answered by a call this process made for the same key (a key repeated within the run). */
  reused: number
  /** Calls made (and recorded, unless writing is off): one per key. */
  misses: number
}

/**
 * A lookup, by the call's key: `hit`, the entry to answer with (`reused`: recorded by this process,
 * not read from the file); `pending`, the same key is being called for another rollout: wait for
 * `settled` and look again; `miss`, the caller makes the call, then records it or, if it fails,
 * {@link Cassette.release}s the key so a waiter makes it instead.
 */
export type CassetteLookup<E extends CassetteEntry> =
  | { kind: 'hit'; key: string; entry: E; reused: boolean }
  | { kind: 'pending'; key: string; settled: Promise<void> }
  | { kind: 'miss'; key: string }

/**
 * An open cassette file: the model calls (and opted-in tool calls) of earlier runs by key, and the
 * calls this run made. The engine asks it before calling a policy ({@link findStep}) and tells it
 * what a call returned ({@link recordStep}); {@link save} merges this run into the file.
 *
 * @example
 * <!-- example:examples/docs/cassette.test.ts#open -->
 * ```ts
 * import { contrastive } from 'vitest-causal-replay/attribution'
 * import { openCassette, withCassette } from 'vitest-causal-replay/cassette'
 *
 * const cassette = await openCassette('__cassettes__/support.cassette.json') // { mode, write, redact }
 * const result = await contrastive(withCassette(agent, cassette), factual, { isBad })
 * await cassette?.save() // null when the mode is 'off'
 * ```
 * <!-- /example:examples/docs/cassette.test.ts#open -->
 */
export class Cassette {
  /** The cassette's path, absolute. */
  readonly file: string
  readonly mode: Exclude<CassetteMode, 'off'>
  readonly write: CassetteWrite
  /** Hits, reuses and misses so far. */
  readonly counts: CassetteCounts = { hits: 0, reused: 0, misses: 0 }
  /** The calls this process made, unredacted (redaction is applied when the file is written). */
  private readonly recorded = new Map<string, CassetteEntry>()
  private readonly used = new Set<string>()
  /**
   * Keys being called right now, each with what settles its waiters. One key is one call: a second
   * rollout that needs the same call (concurrent arms of a replay share streams) waits for the
   * first's answer instead of drawing its own, so what every rollout saw is what the file keeps,
   * whatever the scheduling.
   */
  private readonly inFlight = new Map<string, { settled: Promise<void>; settle: () => void }>()
  /**
   * The `redact` option as one function (undefined: nothing is redacted): the file's values go
   * through it, and so do the reports of a check that uses the cassette.
   */
  readonly redactor: CassetteRedactor | undefined
  /**
   * Each recorded step's `meta` and `joinStreamed` functions, by key: the file gets the action with
   * its streamed pieces joined, then redacted, and the meta made again from that.
   */
  private readonly rebuilds = new Map<string, EntryRebuild>()

  /** Use {@link openCassette}, which reads the file. */
  constructor(
    file: string,
    mode: Exclude<CassetteMode, 'off'>,
    write: CassetteWrite,
    private readonly stored: ReadonlyMap<string, CassetteEntry>,
    redact?: CassetteRedact,
  ) {
    this.file = resolve(file)
    this.mode = mode
    this.write = write
    this.redactor = redactorOf(redact)
  }

  /**
   * The entry of a step call (a hit), a call of the same key in flight (wait, then look again), or
   * a miss (call the policy, then {@link recordStep}, or {@link release} if it fails). `refresh`
   * never hits the file, but a key called earlier in the run is reused; `offline` throws a
   * {@link CassetteMissError} on a miss that names the step and shows how its request differs from
   * the nearest stored entry.
   */
  findStep(call: StepCallKey): CassetteLookup<StepEntry> {
    return this.find(stepKey(call), 'step', () => this.describeStepMiss(call))
  }

  /**
   * Stores what a missed step's policy returned (with the step's meta, restored on later hits).
   * `rebuild` is the step's options: when the cassette redacts, `joinStreamed` gives the action the
   * file stores and `meta` makes the stored meta from it, redacted.
   */
  recordStep(
    key: string,
    call: StepCallKey,
    action: Json,
    meta: JsonObject | undefined,
    rebuild: Pick<StepOptions, 'meta' | 'joinStreamed'> = {},
  ): void {
    const entry: StepEntry = {
      kind: 'step',
      name: call.name,
      stream: { ...call.stream },
      summary: stepSummary(action, meta),
      action,
    }
    if (call.model !== undefined) entry.model = call.model
    if (call.request !== undefined) entry.request = call.request
    if (meta !== undefined) entry.meta = meta
    if (this.redactor !== undefined && (rebuild.meta !== undefined || rebuild.joinStreamed !== undefined))
      this.rebuilds.set(key, rebuild)
    this.recorded.set(key, entry)
    this.used.add(key)
    this.settle(key)
  }

  /**
   * Gives up a miss whose call failed (or whose rollout ended first): nothing is recorded, and a
   * rollout waiting on the key looks again and makes the call itself.
   */
  release(key: string): void {
    this.settle(key)
  }

  /** The stored result of a tool call, as {@link findStep} for steps. */
  findTool(call: ToolCallKey): CassetteLookup<ToolEntry> {
    return this.find(
      toolKey(call),
      'tool',
      () =>
        `Cassette miss (offline): tool call "${call.tool}" at step ${call.stream.step}, position ${call.stream.position} (seed ${call.stream.seed}, rollout ${call.stream.rollout}) with args ${shortJson(this.redactedValue(call.args, 'tool-args'))} is not in ${displayPath(this.file, process.cwd())}. Run once without CAUSAL_REPLAY_CACHE=offline to record it.`,
    )
  }

  /**
   * The lookup both kinds of call share: a call this process made is reused (in every mode), the
   * file is read unless the mode is `refresh`, a key in flight is waited for, and otherwise the
   * caller owns the miss; an `offline` miss throws with `describeMiss()` (built only then: the
   * nearest-entry diff of a step miss reads every entry).
   */
  private find<K extends CassetteEntry['kind']>(
    key: string,
    kind: K,
    describeMiss: () => string,
  ): CassetteLookup<Extract<CassetteEntry, { kind: K }>> {
    type Entry = Extract<CassetteEntry, { kind: K }>
    const recorded = this.recorded.get(key)
    if (recorded?.kind === kind) {
      this.counts.reused++
      return { kind: 'hit', key, entry: recorded as Entry, reused: true }
    }
    const flight = this.inFlight.get(key)
    if (flight !== undefined) return { kind: 'pending', key, settled: flight.settled }
    const stored = this.mode === 'refresh' ? undefined : this.stored.get(key)
    if (stored?.kind === kind) {
      this.used.add(key)
      this.counts.hits++
      return { kind: 'hit', key, entry: stored as Entry, reused: false }
    }
    if (this.mode === 'offline') throw new CassetteMissError(describeMiss())
    this.counts.misses++
    let settle: () => void = () => {}
    const settled = new Promise<void>((resolve) => {
      settle = resolve
    })
    this.inFlight.set(key, { settled, settle })
    return { kind: 'miss', key }
  }

  /** Ends the key's flight, if any: its waiters look again. */
  private settle(key: string): void {
    const flight = this.inFlight.get(key)
    if (flight === undefined) return
    this.inFlight.delete(key)
    flight.settle()
  }

  /** Stores a tool call's result (`undefined`: the tool returned nothing). */
  recordTool(key: string, call: ToolCallKey, result: Json | undefined): void {
    const entry: ToolEntry = { kind: 'tool', tool: call.tool, stream: { ...call.stream }, args: call.args }
    if (result !== undefined) entry.result = result
    this.recorded.set(key, entry)
    this.used.add(key)
    this.settle(key)
  }

  /**
   * Writes this run's entries into the file, merged under a lock with what is on disk (see
   * `saveCassetteFile`). `prune: false` turns a `prune` write into a `merge` (a run that did not
   * use every test of the file must not drop the entries of the tests it skipped). Returns whether
   * the file changed; nothing is written when `write` is `none`. Calls too large for the file to be
   * read back are left out, the rest written, then a `CassetteTooLargeError` names them.
   */
  async save(options: { prune?: boolean } = {}): Promise<boolean> {
    if (this.write === 'none') return false
    if (this.recorded.size === 0 && this.write !== 'prune') return false
    const prune = this.write === 'prune' && options.prune !== false
    return saveCassetteFile(this.file, { put: this.redacted(), keep: prune ? this.used : undefined })
  }

  /**
   * When `auto` misses were made and will not be written (`write: 'none'`, as in CI), what made the
   * cassette stale: how many calls missed, and the first difference (in the order of seed,
   * rollout, step) from the nearest stored call. Null when nothing was dropped.
   */
  staleness(): CassetteStaleness | null {
    // A refresh misses by design; only `auto` falls back to live calls on a stale file.
    if (this.mode !== 'auto' || this.write !== 'none' || this.counts.misses === 0) return null
    // Ties (one stream, several requests: the arms of a replay) go by key, never by finish order.
    const missed = [...this.recorded].sort(
      ([keyA, a], [keyB, b]) => compareStreams(a, b) || (keyA < keyB ? -1 : keyA > keyB ? 1 : 0),
    )
    const first = missed[0]?.[1]
    return {
      file: this.file,
      misses: this.counts.misses,
      firstDifference: first === undefined ? null : this.describeFirstDifference(first),
    }
  }

  /** One line: which call missed first, and the first path its request changed at. */
  private describeFirstDifference(entry: CassetteEntry): string {
    if (entry.kind === 'tool')
      return `tool "${entry.tool}" at step ${entry.stream.step}: args ${shortJson(this.redactedValue(entry.args, 'tool-args'))}`
    const call: StepCallKey = {
      name: entry.name,
      model: entry.model,
      request: entry.request,
      stream: entry.stream,
    }
    const where = `step ${entry.stream.step} "${entry.name}"`
    const nearest = this.nearestStep(call)
    if (nearest === undefined) return `${where}: no stored call of this step`
    const [line] = describeRequestDiff(nearest.request, this.redactedValue(call.request, 'request'))
    return line === undefined ? `${where}: same request, another stream or model` : `${where} ${line}`
  }

  /** This run's entries as the file gets them: redacted. Keys are the unredacted calls'. */
  private redacted(): ReadonlyMap<string, CassetteEntry> {
    const redact = this.redactor
    if (redact === undefined) return this.recorded
    const out = new Map<string, CassetteEntry>()
    for (const [key, entry] of this.recorded)
      out.set(key, redactEntry(entry, redact, this.rebuilds.get(key) ?? {}))
    return out
  }

  /** A value as the file would store it: what messages about misses show, and compare with stored values. */
  private redactedValue<V extends Json | undefined>(value: V, part: CassettePart): V | Json {
    return value === undefined || this.redactor === undefined ? value : this.redactor(value, part)
  }

  private describeStepMiss(call: StepCallKey): string {
    const { stream } = call
    const model = call.model === undefined ? '' : `model ${call.model}, `
    const head = `Cassette miss (offline): step ${stream.step} "${call.name}" (${model}seed ${stream.seed}, rollout ${stream.rollout}) is not in ${displayPath(this.file, process.cwd())}.`
    const nearest = this.nearestStep(call)
    const tail = 'Run once without CAUSAL_REPLAY_CACHE=offline to record it.'
    if (nearest === undefined) return `${head}\nNo stored call of step "${call.name}". ${tail}`
    const same = sameStream(nearest.stream, call.stream)
      ? 'same stream'
      : `rollout ${nearest.stream.rollout}, step ${nearest.stream.step}`
    const lines = describeRequestDiff(nearest.request, this.redactedValue(call.request, 'request'))
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
    const request = this.redactedValue(call.request, 'request')
    for (const entry of this.stored.values()) {
      if (entry.kind !== 'step' || entry.name !== call.name) continue
      const score =
        (sameStream(entry.stream, call.stream) ? 0 : 1_000_000) + requestDistance(entry.request, request)
      if (best === undefined || score < best.score) best = { entry, score }
    }
    return best?.entry
  }
}

/** The public `openCassette` in the environment `env`, read by the caller where the library was entered. */
export async function openCassetteIn(
  env: Environment,
  file: string,
  options: z.output<typeof OpenCassetteOptionsSchema> = {},
): Promise<Cassette | null> {
  const mode = resolveCassetteMode(options.mode, 'auto', 'openCassette', env)
  if (mode === 'off') return null
  const write = options.write ?? (isCi(env) ? 'none' : 'merge')
  return new Cassette(file, mode, write, await readCassetteFile(resolve(file)), options.redact)
}

/** What {@link Cassette.staleness} reports: misses made and dropped, and where the first one differs. */
export interface CassetteStaleness {
  /** The cassette's path, absolute. */
  file: string
  /** Calls made because the cassette did not hold them (one per key). */
  misses: number
  /** The first missed call and the first path its request differs at from the nearest stored one. */
  firstDifference: string | null
}

/** Orders entries by seed, rollout, step (and a tool call's position): the run's order, not finish order. */
function compareStreams(a: CassetteEntry, b: CassetteEntry): number {
  const position = (entry: CassetteEntry) => (entry.kind === 'tool' ? entry.stream.position : -1)
  return (
    a.stream.seed - b.stream.seed ||
    a.stream.rollout - b.stream.rollout ||
    a.stream.step - b.stream.step ||
    position(a) - position(b) ||
    (a.kind === b.kind ? 0 : a.kind === 'step' ? -1 : 1)
  )
}

function sameStream(a: StepEntry['stream'], b: StepEntry['stream']): boolean {
  return a.seed === b.seed && a.rollout === b.rollout && a.step === b.step
}
