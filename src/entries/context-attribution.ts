// The attribution entry's `contextAttribution`, not an entry of its own: it is defined at the top
// layer, where the adapters' context codecs are handed to the engine below, which imports no adapter.
import { CONTEXT_CODECS } from '../adapters/context-codecs.js'
import type { AgentOrScenario } from '../agent/define-agent.js'
import { contextAttributionResolved } from '../attribute/context/context-attribution.js'
import {
  resolveContextAttributionOptions,
  type ContextAttributionOptions,
} from '../attribute/context/context-options.js'
import type { ContextAttributionResult } from '../attribute/context-schema.js'
import type { Trajectory } from '../trajectory/schema.js'

/**
 * Context attribution: which part of step k's context made `factual` go bad?
 *
 * The **intact arm** replays `resample(k)`: steps before k held, step k drawn afresh from its
 * recorded context, the rest live. Each **part arm** replays `editContext(k, …)` with one part of
 * that context ablated (a key of an object context; a message, system prompt or tool result of a
 * model call's context: see `contextParts` for what removing each means). The effect of a part is
 * P(bad | ablated) − P(bad | intact): negative when removing the part rescues the run.
 *
 * Statistics are contrastive's (see `contrastive`): every arm shares the seed (common random
 * numbers, `crn`), so rollout r of each arm draws step k and every later step from the same
 * streams and arms are compared pair by pair; sequential arms advance in batches and stop on a
 * Holm-significant rescue (the paired betting e-process, one-sided in the rescue direction), on a
 * worsening, once effects of ±`minEffect` are ruled out, or at `rollouts`. Holm runs over all parts
 * (a part the budget did not reach counts with p = 1). Effects are reported two-sided at
 * 1 − 2·(1 − confidence). `sequential: false` runs exactly `rollouts` per arm with Tango's
 * corrected paired score test (Newcombe without CRN).
 *
 * The **culprit part** is the significant part whose removal rescues most (lowest effect); with no
 * significant part the attribution abstains (culprit null). **Refinement** then cuts the culprit
 * part's text into sentences (lines, for multi-line text) and binary-searches the dyadic spans of
 * those units, removing one span per probe: the left half first; a left half that rescues is
 * descended into, one that decidedly does not sends the search into the right half, and the span
 * the search ends on is probed last if it was not yet (see `refine`). About log2 u + 1 probes for
 * u units, at most 2·⌈log2 u⌉ + 1. Error control: every probe's one-sided p-value (the e-process
 * combined with an exact sign test at the cap, as contrastive's binary search) is multiplied by
 * 2u − 2, the number of dyadic spans the search could ever probe (Bonferroni over all of them). Each
 * potential probe's rollouts are fixed by the seed whether or not the search runs it, so the chance
 * that any probed span is declared a rescue while its removal does not rescue — the reported
 * culprit span among them — is at most 1 − confidence, however the search chose its probes (the
 * navigation rules only choose which spans get data; none lowers a threshold). The
 * culprit is the smallest span that passed; when none did, the whole part.
 *
 * Budget: rollouts are charged in a fixed order; a spent budget stops the attribution with
 * `truncated: true`. The culprit part is then reported only if every part was decided; a refinement
 * cut short reports the smallest span established so far (each established span is a tested claim,
 * never a guess). Deterministic: the same seed gives a byte-identical result at any concurrency.
 */
export async function contextAttribution(
  target: AgentOrScenario,
  factual: Trajectory,
  options: ContextAttributionOptions,
): Promise<ContextAttributionResult> {
  return contextAttributionResolved(
    factual,
    resolveContextAttributionOptions(target, factual, options),
    CONTEXT_CODECS,
  )
}
