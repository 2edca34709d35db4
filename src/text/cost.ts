import type { ModelCost } from '../verdict/schema.js'
import { count, plural } from './numbers.js'

/**
 * The cost line of a message or of the run's summary, or null when there were no model calls (a
 * synthetic agent's steps name no `model`, so its messages have no cost line):
 *
 * - `cost: 412 model calls (380 from the cassette), 98,210 tokens, $0.0123; the cassette saved $0.1180`
 * - `cost: 330 model calls (130 reused within this run), 28,000 tokens, $0.0540; the cassette saved $0.0330`
 *   — a first run: repeats of a call the run already made (same request, same stream) are answered
 *   by that call, not by a stored file;
 * - `cost: 12 model calls, 3,400 tokens, USD unknown (no prices)` — no call was priced (pass
 *   `prices` to `wrapModel`); tokens are still counted;
 * - `cost: 12 model calls, 3,400 tokens, $0.0040 + 2 unpriced calls` — some calls had no price;
 * - `cost: 40 model calls (all from the cassette), nothing spent; the cassette saved $0.0950`;
 * - `cost: 150 model calls, 41,000 tokens, $0.0210; +3 rollouts aborted in flight (4 of the calls, 2 more cut off)`
 *   — rollouts still running when the claim decided were cancelled: paid for, never scored.
 *
 * Tokens and USD are those of live calls (input and output, cached input included); a cassette hit
 * spends nothing, and what it would have cost is what "the cassette saved" (said only when priced).
 */
export function formatCostLine(cost: ModelCost | undefined): string | null {
  if (cost === undefined || cost.modelCalls === 0) return null
  const live = cost.modelCalls - cost.cassetteHits
  const reused = cost.reusedHits ?? 0
  const fromFile = cost.cassetteHits - reused
  // "all" when one source answered every call.
  const all = live === 0 && (fromFile === 0 || reused === 0)
  const parts = [
    ...(fromFile === 0 ? [] : [all ? 'all from the cassette' : `${count(fromFile)} from the cassette`]),
    ...(reused === 0 ? [] : [all ? 'all reused within this run' : `${count(reused)} reused within this run`]),
  ]
  const hits = parts.length === 0 ? '' : ` (${parts.join(', ')})`
  const spent = live === 0 ? 'nothing spent' : `${plural(tokens(cost), 'token')}, ${spentText(cost)}`
  const saved = cost.savedUsd === null ? '' : `; the cassette saved ${usd(cost.savedUsd)}`
  return `cost: ${plural(cost.modelCalls, 'model call')}${hits}, ${spent}${saved}${abortedText(cost)}`
}

/** What rollouts cancelled in flight cost: "; +3 rollouts aborted in flight (4 of the calls, 2 more cut off)". */
function abortedText({ aborted }: ModelCost): string {
  if (aborted === undefined) return ''
  const calls = [
    ...(aborted.modelCalls === 0 ? [] : [`${count(aborted.modelCalls)} of the calls`]),
    ...(aborted.cutCalls === 0 ? [] : [`${count(aborted.cutCalls)} more cut off`]),
  ]
  const detail = calls.length === 0 ? '' : ` (${calls.join(', ')})`
  return `; +${plural(aborted.rollouts, 'rollout')} aborted in flight${detail}`
}

/**
 * A summary table's cost cell: "412 calls (380 cassette), $0.0123", "330 calls (130 reused),
 * $0.0540" (repeats within a first run), "12 calls, unpriced", or "—" for an assertion without
 * model calls.
 */
export function costCell(cost: ModelCost | undefined): string {
  if (cost === undefined || cost.modelCalls === 0) return '—'
  const reused = cost.reusedHits ?? 0
  const fromFile = cost.cassetteHits - reused
  const parts = [
    ...(fromFile === 0 ? [] : [`${count(fromFile)} cassette`]),
    ...(reused === 0 ? [] : [`${count(reused)} reused`]),
  ]
  const hits = parts.length === 0 ? '' : ` (${parts.join(', ')})`
  const live = cost.modelCalls - cost.cassetteHits
  const money = live === 0 ? 'nothing spent' : cost.usd === null ? 'unpriced' : usd(cost.usd)
  return `${plural(cost.modelCalls, 'call')}${hits}, ${money}`
}

/** The cost of several assertions together (a run's total); undefined when none had a cost. */
export function sumCosts(costs: ReadonlyArray<ModelCost | undefined>): ModelCost | undefined {
  const present = costs.filter((cost): cost is ModelCost => cost !== undefined)
  if (present.length === 0) return undefined
  const total = (pick: (cost: ModelCost) => number) => present.reduce((sum, cost) => sum + pick(cost), 0)
  const nullableTotal = (pick: (cost: ModelCost) => number | null) => {
    const priced = present.map(pick).filter((value): value is number => value !== null)
    return priced.length === 0 ? null : priced.reduce((sum, value) => sum + value, 0)
  }
  return {
    modelCalls: total((cost) => cost.modelCalls),
    cassetteHits: total((cost) => cost.cassetteHits),
    ...(total((cost) => cost.reusedHits ?? 0) === 0
      ? {}
      : { reusedHits: total((cost) => cost.reusedHits ?? 0) }),
    inputTokens: total((cost) => cost.inputTokens),
    outputTokens: total((cost) => cost.outputTokens),
    usd: nullableTotal((cost) => cost.usd),
    unpricedCalls: total((cost) => cost.unpricedCalls),
    savedUsd: nullableTotal((cost) => cost.savedUsd),
    ...(total((cost) => cost.aborted?.rollouts ?? 0) === 0
      ? {}
      : {
          aborted: {
            rollouts: total((cost) => cost.aborted?.rollouts ?? 0),
            modelCalls: total((cost) => cost.aborted?.modelCalls ?? 0),
            cutCalls: total((cost) => cost.aborted?.cutCalls ?? 0),
          },
        }),
  }
}

/** Input plus output tokens of the live calls. */
function tokens(cost: ModelCost): number {
  return cost.inputTokens + cost.outputTokens
}

function spentText(cost: ModelCost): string {
  if (cost.usd === null) return 'USD unknown (no prices)'
  return cost.unpricedCalls === 0
    ? usd(cost.usd)
    : `${usd(cost.usd)} + ${plural(cost.unpricedCalls, 'unpriced call')}`
}

/** Dollars to four decimals, as the budget prints them: "$0.0123". */
export function usd(value: number): string {
  return `$${value.toFixed(4)}`
}
