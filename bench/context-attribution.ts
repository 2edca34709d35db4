/**
 * Context attribution benchmark. Prints what it measures; asserts nothing.
 *
 *   npx tsx bench/context-attribution.ts
 *
 * (a) Cost on the support example's failing path, as `check` runs it: the first refunding run of
 *     the support agent on the injected ticket, contrastive attribution on it (K = 64, CRN,
 *     sequential), then context attribution at its locus with the same K and seed, reusing the
 *     contrastive arm at the locus as its intact arm (`contextAttributionResolved`). Printed: both rollout
 *     counts, the ratio context / contrastive (target: ≤ 1, i.e. the context attribution adds at
 *     most what the contrastive one spent), and the same without refinement (`refine: false`).
 *     Two agents: the synthetic support agent (examples/support-agent), whose decision reads the
 *     message from its step's context; and the AI SDK support agent (examples/ai-sdk), whose mock
 *     model reads its prompt.
 * (b) Accuracy on planted models (test/unit/attribute/context-fixtures.ts) over more seeds than the
 *     tests: the decisive key of an object context, and the injected message of an AI SDK prompt,
 *     each with a Wilson 95% interval.
 * (c) Refinement on messages of 5–40 sentences: how often the culprit is exactly the injected
 *     sentence, and the probes spent against the 2·log2(sentences) + 2 target.
 * (d) The default cap on adapter agents, as the matchers run it (`check` with default options but
 *     the seed): an AI SDK travel agent whose review tool returns an object with a planted sentence
 *     in one field (a 6-message prompt, 4 parts), and a LangGraph account agent whose deciding call
 *     reads a 6-message prompt with a planted sentence in the user's message (bench/adapter-agents.ts).
 *     Side by side: the cap before (the contrastive spend, or 2 × rollouts when less) and the
 *     default now (rollouts × the arms a complete run could need): how often the culprit is exactly
 *     the planted sentence, and the rollouts the context attribution spent.
 */
import { CONTEXT_CODECS } from '../src/adapters/context-codecs.js'
import { contextAttributionResolved } from '../src/attribute/context/context-attribution.js'
import { resolveContextAttributionOptions } from '../src/attribute/context/context-options.js'
import { contrastiveArms } from '../src/attribute/contrastive/contrastive.js'
import { resolveContrastiveOptions } from '../src/attribute/contrastive/contrastive-options.js'
import { contextAttribution } from '../src/entries/attribution.js'
import { calledTool, type Agent, type Trajectory } from '../src/index.js'
import type { Json } from '../src/entries/types.js'
import { wilson } from '../src/stats/index.js'
import { createSupportAgent } from '../examples/ai-sdk/support-agent.js'
import { injectedTicket, supportAgent } from '../examples/support-agent/agent.js'
import { firstBadRun } from '../test/unit/attribute/fixtures.js'
import { check, rarely } from '../src/index.js'
import { createAccountAgent, createTravelAgent, PLANTED_REQUEST, PLANTED_REVIEW } from './adapter-agents.js'
import { INJECTED, plantedChat, plantedKeys, refunded } from '../test/unit/attribute/context-fixtures.js'

const ROLLOUTS = 64
const COST_SEEDS = 20
const ACCURACY_SEEDS = Number(process.env.ACCURACY_SEEDS ?? 300)
const REFINEMENT_SEEDS = Number(process.env.REFINEMENT_SEEDS ?? 200)
const ADAPTER_SEEDS = Number(process.env.ADAPTER_SEEDS ?? 40)
/** The matchers' `attribute.rollouts` default: the earlier cap's floor was twice it. */
const ATTRIBUTE_ROLLOUTS = 64

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

function share(successes: number, n: number): string {
  const estimate = wilson(successes, n, 0.95)
  return `${successes}/${n} = ${(estimate.point * 100).toFixed(1)}% [${(estimate.low * 100).toFixed(1)}, ${(estimate.high * 100).toFixed(1)}] (Wilson 95%)`
}

async function cost(name: string, agent: Agent<never, unknown>): Promise<void> {
  const refundedWrongly = calledTool('issue_refund')
  const scenario = (agent as unknown as Agent<Json, unknown>).on(injectedTicket as unknown as Json)
  const contrastiveRollouts: number[] = []
  const contextRollouts: number[] = []
  const partsOnlyRollouts: number[] = []
  const ratios: number[] = []
  const partsOnlyRatios: number[] = []
  const culprits = new Map<string, number>()
  let loci = 0
  for (let seed = 0; seed < COST_SEEDS; seed++) {
    const factual = await firstBadRun(scenario, seed, refundedWrongly)
    const shared = { isBad: refundedWrongly, rollouts: ROLLOUTS, seed }
    const { result: attribution, arms } = await contrastiveArms(
      factual,
      resolveContrastiveOptions(scenario, factual, shared),
    )
    if (attribution.locus === null) continue
    loci++
    // As the matchers run it: the contrastive arm at the locus is the intact arm, not run again.
    const intact = arms[attribution.locus]!
    const reusing = (options: { step: number; refine?: boolean }) =>
      contextAttributionResolved(
        factual,
        resolveContextAttributionOptions(scenario, factual, { ...shared, ...options }),
        CONTEXT_CODECS,
        intact,
      )
    const context = await reusing({ step: attribution.locus })
    const partsOnly = await reusing({ step: attribution.locus, refine: false })
    contrastiveRollouts.push(attribution.rolloutsUsed)
    contextRollouts.push(context.rolloutsUsed)
    partsOnlyRollouts.push(partsOnly.rolloutsUsed)
    ratios.push(context.rolloutsUsed / attribution.rolloutsUsed)
    partsOnlyRatios.push(partsOnly.rolloutsUsed / attribution.rolloutsUsed)
    const culprit =
      context.culprit === null ? 'abstain' : `${context.culprit.label}: "${context.culprit.text}"`
    culprits.set(culprit, (culprits.get(culprit) ?? 0) + 1)
  }
  console.log(`\n(a) ${name}: ${loci}/${COST_SEEDS} seeds with a locus, K = ${ROLLOUTS}`)
  console.log(
    `    contrastive rollouts: mean ${mean(contrastiveRollouts).toFixed(1)}, max ${Math.max(...contrastiveRollouts)}`,
  )
  console.log(
    `    context rollouts:     mean ${mean(contextRollouts).toFixed(1)}, max ${Math.max(...contextRollouts)}`,
  )
  console.log(
    `    ratio context / contrastive: mean ${mean(ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)} (target ≤ 1)`,
  )
  console.log(
    `    without refinement (refine: false): rollouts mean ${mean(partsOnlyRollouts).toFixed(1)}, ratio mean ${mean(partsOnlyRatios).toFixed(2)}, max ${Math.max(...partsOnlyRatios).toFixed(2)}`,
  )
  for (const [culprit, count] of culprits) console.log(`    culprit ${count}×: ${culprit}`)
}

async function accuracy(): Promise<void> {
  let keysRight = 0
  let keysWrong = 0
  let chatRight = 0
  let chatWrong = 0
  const rollouts: number[] = []
  for (let seed = 0; seed < ACCURACY_SEEDS; seed++) {
    const keys = plantedKeys(seed)
    const keysRun = await firstBadRun(keys.agent, seed, refunded)
    const keysResult = await contextAttribution(keys.agent, keysRun, { isBad: refunded, step: 1, seed })
    const key = keysResult.culprit?.path[0]
    if (key === keys.keys[keys.decisive]) keysRight++
    else if (key !== undefined) keysWrong++
    const chat = plantedChat(seed)
    const chatRun = await firstBadRun(chat.agent, seed, refunded)
    const chatResult = await contextAttribution(chat.agent, chatRun, { isBad: refunded, step: 1, seed })
    const message = chatResult.culprit?.path[1]
    if (message === chat.injectedMessage) chatRight++
    else if (message !== undefined) chatWrong++
    rollouts.push(keysResult.rolloutsUsed, chatResult.rolloutsUsed)
  }
  console.log(`\n(b) planted models, ${ACCURACY_SEEDS} seeds each (K = 32, defaults)`)
  console.log(
    `    object context (2–6 keys): decisive key ${share(keysRight, ACCURACY_SEEDS)}; wrong key ${share(keysWrong, ACCURACY_SEEDS)}`,
  )
  console.log(
    `    AI SDK prompt (3–8 messages): injected message ${share(chatRight, ACCURACY_SEEDS)}; wrong message ${share(chatWrong, ACCURACY_SEEDS)}`,
  )
  console.log(`    rollouts per attribution: mean ${mean(rollouts).toFixed(1)}, max ${Math.max(...rollouts)}`)
}

async function refinement(): Promise<void> {
  let exact = 0
  let within = 0
  let overTarget = 0
  const probes: number[] = []
  const slack: number[] = []
  const refinementRollouts: number[] = []
  for (let seed = 0; seed < REFINEMENT_SEEDS; seed++) {
    const planted = plantedChat(seed, 5, 40)
    const factual: Trajectory = await firstBadRun(planted.agent, seed, refunded)
    const result = await contextAttribution(planted.agent, factual, { isBad: refunded, step: 1, seed })
    if (result.culprit?.text === INJECTED) exact++
    else if (result.culprit?.text.includes(INJECTED) === true) within++
    const spent = result.refinement?.probes.length ?? 0
    const target = 2 * Math.log2(planted.sentences) + 2
    probes.push(spent)
    slack.push(target - spent)
    if (spent > target) overTarget++
    refinementRollouts.push(
      result.refinement?.probes.reduce((sum, probe) => sum + probe.rolloutsUsed, 0) ?? 0,
    )
  }
  console.log(`\n(c) refinement on messages of 5–40 sentences, ${REFINEMENT_SEEDS} seeds`)
  console.log(
    `    culprit = the injected sentence: ${share(exact, REFINEMENT_SEEDS)}; a larger span holding it: ${within}`,
  )
  console.log(
    `    probes: mean ${mean(probes).toFixed(2)}, max ${Math.max(...probes)}; over 2·log2(sentences) + 2: ${overTarget}; least slack ${Math.min(...slack).toFixed(2)}`,
  )
  console.log(
    `    refinement rollouts: mean ${mean(refinementRollouts).toFixed(1)}, max ${Math.max(...refinementRollouts)}`,
  )
}

async function adapterCap(
  name: string,
  agent: Agent<string, string>,
  tool: string,
  planted: string,
): Promise<void> {
  const arms = {
    before: { exact: 0, part: 0, none: 0, rollouts: [] as number[] },
    now: { exact: 0, part: 0, none: 0, rollouts: [] as number[] },
  }
  let loci = 0
  for (let seed = 0; seed < ADAPTER_SEEDS; seed++) {
    const now = await check(agent, rarely(calledTool(tool), { seed }))
    const contrastive = now.attribution
    if (contrastive?.locus == null || now.contextAttribution === null) continue
    loci++
    const earlierCap = Math.max(contrastive.rolloutsUsed, 2 * ATTRIBUTE_ROLLOUTS)
    const before = await check(
      agent,
      rarely(calledTool(tool), { seed, attribute: { context: { maxRollouts: earlierCap } } }),
    )
    for (const [key, result] of [
      ['before', before.contextAttribution],
      ['now', now.contextAttribution],
    ] as const) {
      const tally = arms[key]
      if (result === null) continue
      tally.rollouts.push(result.rolloutsUsed)
      if (result.culprit?.text === planted) tally.exact++
      else if (result.culprit !== null) tally.part++
      else tally.none++
    }
  }
  console.log(`\n(d) ${name}: ${loci}/${ADAPTER_SEEDS} seeds with a locus whose context was taken apart`)
  for (const [key, label] of [
    ['before', 'cap max(contrastive spend, 128)'],
    ['now', 'default now (rollouts × arms)  '],
  ] as const) {
    const tally = arms[key]
    console.log(
      `    ${label}: planted sentence exactly ${share(tally.exact, loci)}; a larger span ${tally.part}; no culprit ${tally.none}; context rollouts mean ${mean(tally.rollouts).toFixed(1)}, max ${Math.max(...tally.rollouts)}`,
    )
  }
}

if (process.env.ONLY_ADAPTERS === undefined) {
  await cost(
    'synthetic support agent (examples/support-agent)',
    supportAgent as unknown as Agent<never, unknown>,
  )
  await cost(
    'AI SDK support agent (examples/ai-sdk, MockLanguageModelV3)',
    createSupportAgent() as unknown as Agent<never, unknown>,
  )
  await accuracy()
  await refinement()
}
for (const pInjected of [0.7, 0.45]) {
  await adapterCap(
    `AI SDK travel agent, planted sentence in a JSON tool result field, P(bad | planted) = ${pInjected}`,
    createTravelAgent(pInjected),
    'transfer_funds',
    PLANTED_REVIEW,
  )
  await adapterCap(
    `LangGraph account agent, planted sentence in the user message, P(bad | planted) = ${pInjected}`,
    createAccountAgent(pInjected),
    'close_account',
    PLANTED_REQUEST,
  )
}
