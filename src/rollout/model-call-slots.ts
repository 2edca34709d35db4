/**
 * The process-wide count of live model calls in flight, per model: the one concurrency budget that
 * every claim running in this process (`test.concurrent`, several files in one worker, parallel
 * `check` calls) shares, so ten concurrent claims at `concurrency: 8` do not send 80 calls to one
 * model at once.
 *
 * How the budget is split: a live call to model m may start while fewer than `cap` calls to m are
 * in flight in the process, where `cap` is its claim's own (the claim's `concurrency`, or the run's
 * `modelConcurrency` when set). Claims at the same concurrency c thus share c calls to a model
 * between them; a claim asking for more may use more, never past its own cap; each claim's own
 * rollouts in flight stay bounded by its `concurrency` too. Waiting calls start first come, first
 * served, so a claim at a low cap is not passed over forever by one at a high cap.
 *
 * Only the timing of calls depends on it, never what they return (each step draws from its own
 * stream), so a verdict is the same whatever else runs in the process.
 */
export class ModelCallSlots {
  private readonly inFlight = new Map<string, number>()
  private readonly waiting = new Map<string, Waiter[]>()

  /** Live calls to `model` in flight now. */
  callsInFlight(model: string): number {
    return this.inFlight.get(model) ?? 0
  }

  /**
   * Resolves when one more live call to `model` may start under `cap`, having taken its slot;
   * rejects with the signal's reason if `signal` aborts first. Call {@link release} once the call
   * settles.
   */
  acquire(model: string, cap: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason as Error)
    const queue = this.waiting.get(model)
    if ((queue === undefined || queue.length === 0) && this.callsInFlight(model) < cap) {
      this.inFlight.set(model, this.callsInFlight(model) + 1)
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        cap,
        start: () => {
          signal.removeEventListener('abort', onAbort)
          resolve()
        },
      }
      const onAbort = () => {
        const line = this.waiting.get(model) ?? []
        line.splice(line.indexOf(waiter), 1)
        reject(signal.reason as Error)
        // The call that left may have been what held the others back (a lower cap at the head).
        this.startWaiting(model)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      if (queue === undefined) this.waiting.set(model, [waiter])
      else queue.push(waiter)
    })
  }

  /** Gives back the slot of a call to `model` that settled, starting the next waiting call. */
  release(model: string): void {
    const left = this.callsInFlight(model) - 1
    if (left <= 0) this.inFlight.delete(model)
    else this.inFlight.set(model, left)
    this.startWaiting(model)
  }

  /** Starts waiting calls to `model` in arrival order while the first one's cap allows it. */
  private startWaiting(model: string): void {
    const queue = this.waiting.get(model)
    if (queue === undefined) return
    for (let head = queue[0]; head !== undefined && this.callsInFlight(model) < head.cap; head = queue[0]) {
      queue.shift()
      this.inFlight.set(model, this.callsInFlight(model) + 1)
      head.start()
    }
    if (queue.length === 0) this.waiting.delete(model)
  }
}

/** A live call waiting for a slot: its claim's cap, and what starts it. */
interface Waiter {
  readonly cap: number
  readonly start: () => void
}

// Kept on `globalThis` under a registered symbol: a test runner that evaluates this module again
// for each test file (Vitest's isolation) or two copies of the package must still share one count.
const GLOBAL_KEY = Symbol.for('vitest-causal-replay.model-call-slots')
const holder = globalThis as { [GLOBAL_KEY]?: ModelCallSlots }

/** The process's one instance: every rollout of every claim in this process counts here. */
export const modelCallSlots: ModelCallSlots = (holder[GLOBAL_KEY] ??= new ModelCallSlots())
