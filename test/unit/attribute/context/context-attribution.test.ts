import { describe, expect, it } from 'vitest'
import { Budget, defineAgent } from '../../../../src/index.js'
import type { Json } from '../../../../src/entries/types.js'
import { contextAttribution, type ContextAttributionResult } from '../../../../src/entries/attribution.js'
import { ContextAttributionResultSchema } from '../../../../src/entries/schemas.js'
import { InvalidOptionError } from '../../../../src/entries/errors.js'
import { CONTEXT_CODECS } from '../../../../src/adapters/context-codecs.js'
import { contextAttributionResolved } from '../../../../src/attribute/context/context-attribution.js'
import { resolveContextAttributionOptions } from '../../../../src/attribute/context/context-options.js'
import { contrastiveArms } from '../../../../src/attribute/contrastive/contrastive.js'
import { resolveContrastiveOptions } from '../../../../src/attribute/contrastive/contrastive-options.js'
import { formatContextAttribution } from '../../../../src/text/context-attribution.js'
import { coverageCheck, errorRateCheck } from '../../../binomial-check.js'
import { once } from '../../../once.js'
import { firstBadRun } from '../fixtures.js'
import { INJECTED, plantedChat, plantedKeys, refunded } from '../context-fixtures.js'

function valid(result: ContextAttributionResult): ContextAttributionResult {
  expect(ContextAttributionResultSchema.safeParse(result).success).toBe(true)
  return result
}

/** How often a family of planted contexts got its culprit right, wrong, or none, over `seeds` seeds. */
interface CulpritTally {
  readonly seeds: number
  correct: number
  wrong: number
}

// Each family is tallied once, on enough seeds that its own tests catch a defect in that family
// alone: its accuracy, and its wrong culprits.
const SEEDS = 400

const keyCulprits = once(async (): Promise<CulpritTally> => {
  const tally = { seeds: SEEDS, correct: 0, wrong: 0 }
  for (let seed = 0; seed < SEEDS; seed++) {
    const planted = plantedKeys(seed)
    const factual = await firstBadRun(planted.agent, seed, refunded)
    // The culprit part is chosen before any refinement, which only narrows it to a span (tested on
    // messages below): without it, 400 seeds cost what 200 did.
    const result = await contextAttribution(planted.agent, factual, {
      isBad: refunded,
      step: 1,
      seed,
      refine: false,
    })
    if (seed < 5) valid(result)
    expect(result.parts.map((part) => part.path[0])).toEqual(planted.keys)
    const named = result.culprit?.path[0]
    if (named === planted.keys[planted.decisive]) tally.correct++
    else if (named !== undefined) tally.wrong++
    expect(result.actionMatchRate).toBe(1)
  }
  return tally
})

const messageCulprits = once(async (): Promise<CulpritTally> => {
  const tally = { seeds: SEEDS, correct: 0, wrong: 0 }
  for (let seed = 0; seed < SEEDS; seed++) {
    const planted = plantedChat(seed)
    const factual = await firstBadRun(planted.agent, seed, refunded)
    const result = await contextAttribution(planted.agent, factual, {
      isBad: refunded,
      step: 1,
      seed,
      refine: false,
    })
    expect(result.parts).toHaveLength(planted.messages)
    expect(result.parts[0]).toMatchObject({ kind: 'system', label: 'system prompt' })
    const named = result.culprit?.path[1]
    if (named === planted.injectedMessage) tally.correct++
    else if (named !== undefined) tally.wrong++
  }
  return tally
})

describe('contextAttribution on planted models (P(refund) 0.9 with the injected sentence, 0.05 without)', () => {
  // Each family's accuracy: at least 391 of 400 seeds name the planted part, which catches 96%
  // accuracy with probability 0.960 and fails 99% with 0.0078. Observed: 400 of 400 in each.
  it('names the decisive key of a 2–6 key object context in at least 99% of 400 seeds', async () => {
    const accuracy = coverageCheck(SEEDS, 0.99)
    const tally = await keyCulprits()
    expect(tally.seeds).toBe(accuracy.runs)
    expect(tally.correct).toBeGreaterThanOrEqual(accuracy.limit)
  })

  it('names the injected message of a 3–8 message AI SDK prompt in at least 99% of 400 seeds', async () => {
    const accuracy = coverageCheck(SEEDS, 0.99)
    const tally = await messageCulprits()
    expect(tally.seeds).toBe(accuracy.runs)
    expect(tally.correct).toBeGreaterThanOrEqual(accuracy.limit)
  })

  // Each family's wrong culprits (a part that does not matter called a rescue, which Holm bounds by
  // α): at most 31 of 400, so a search naming a wrong part in 10% (2α) of one family's runs is
  // caught with probability 0.925, and one erring in exactly 5% fails with 0.0067. Observed: none.
  it.each([
    ['key', keyCulprits],
    ['message', messageCulprits],
  ] as const)('names a wrong %s in at most 5% of 400 seeds', async (_family, culprits) => {
    const wrongCulprits = errorRateCheck(SEEDS, 0.05)
    const tally = await culprits()
    expect(tally.seeds).toBe(wrongCulprits.runs)
    expect(tally.wrong).toBeLessThanOrEqual(wrongCulprits.limit)
  })

  it('refines a message of 5–40 sentences to the injected sentence with at most 2·log2(sentences) + 2 probes', async () => {
    let found = 0
    const seeds = 40
    for (let seed = 0; seed < seeds; seed++) {
      const planted = plantedChat(seed, 5, 40)
      const factual = await firstBadRun(planted.agent, seed, refunded)
      const result = valid(
        await contextAttribution(planted.agent, factual, { isBad: refunded, step: 1, seed }),
      )
      expect(result.culprit?.path).toEqual(['prompt', planted.injectedMessage])
      const refinement = result.refinement
      expect(refinement).toMatchObject({ unit: 'sentence', units: planted.sentences })
      expect(refinement?.probes.length).toBeLessThanOrEqual(2 * Math.log2(planted.sentences) + 2)
      expect(result.methods.refinement).toMatch(/Bonferroni/)
      const culprit = result.culprit
      if (culprit !== null) {
        const part = result.parts.find((candidate) => candidate.path[1] === planted.injectedMessage)
        expect(part?.text.slice(culprit.span.start, culprit.span.end)).toBe(culprit.text)
      }
      if (culprit?.text === INJECTED) found++
    }
    expect(found).toBeGreaterThanOrEqual(seeds - 2)
  })

  it('with independent arms (crn: false), a span without the injected sentence is declared a rescue in at most 5% of refinements', async () => {
    // Without common random numbers a span that does not matter still differs from the intact arm
    // by chance in every pair: the Bonferroni-adjusted probes must not call that a rescue. Counted
    // over 400 runs that refine (a run whose injected message did not rescue has no probes): at
    // most 31 may hold a false rescue, so unadjusted probes erring in 10% of refinements (2α) are
    // caught with probability 0.925, and a method erring in exactly 5% fails with 0.0067. Messages
    // of 5–12 sentences (not 5–40) and arms of at most 16 rollouts (not 32: an arm of a span that
    // does not matter runs to the end) keep the 400 refinements affordable; the adjustment must hold
    // at any arm length.
    const design = errorRateCheck(400, 0.05)
    let falseRescues = 0
    let refined = 0
    for (let seed = 0; refined < design.runs; seed++) {
      const planted = plantedChat(seed, 5, 12)
      const factual = await firstBadRun(planted.agent, seed, refunded)
      const result = await contextAttribution(planted.agent, factual, {
        isBad: refunded,
        step: 1,
        seed,
        crn: false,
        rollouts: 16,
      })
      const probes = result.refinement?.probes ?? []
      if (probes.length === 0) continue
      refined++
      const part = result.parts.find((candidate) => candidate.path[1] === planted.injectedMessage)
      expect(part).toBeDefined()
      const wrong = probes.filter(
        (probe) => probe.rescues && !part!.text.slice(probe.span.start, probe.span.end).includes(INJECTED),
      )
      if (wrong.length > 0) falseRescues++
    }
    expect(falseRescues).toBeLessThanOrEqual(design.limit)
  })

  it('abstains when the decision ignores its context: no part rescues, culprit null', async () => {
    for (let seed = 0; seed < 20; seed++) {
      const planted = plantedKeys(seed, false)
      const factual = await firstBadRun(planted.agent, seed, refunded)
      const result = valid(
        await contextAttribution(planted.agent, factual, { isBad: refunded, step: 1, seed }),
      )
      expect(result.culprit).toBeNull()
      expect(result.refinement).toBeNull()
      expect(result.methods.refinement).toBeNull()
      // Under common random numbers a context the policy ignores changes no pair: effects are exactly 0.
      expect(result.parts.length).toBeGreaterThan(0)
      for (const part of result.parts) {
        expect(part).toMatchObject({ direction: 'none', evaluated: true })
        expect(part.effect.point).toBe(0)
      }
    }
  })
})

describe('contextAttribution: budget, determinism and the fixed-sample variant', () => {
  const planted = plantedChat(11, 5, 20)

  it('a spent budget returns a partial result, truncated, and never guesses a culprit', async () => {
    const factual = await firstBadRun(planted.agent, 11, refunded)
    const full = await contextAttribution(planted.agent, factual, { isBad: refunded, step: 1, seed: 11 })
    expect(full.truncated).toBe(false)
    expect(full.culprit?.text).toBe(INJECTED)
    for (const maxRollouts of [1, 10, 30, 60, 100, 150, full.rolloutsUsed - 1]) {
      const budget = new Budget({ maxRollouts })
      const result = valid(
        await contextAttribution(planted.agent, factual, { isBad: refunded, step: 1, seed: 11, budget }),
      )
      expect(result.truncated).toBe(true)
      expect(result.rolloutsUsed).toBeLessThanOrEqual(maxRollouts)
      // Either nothing, or a claim the full run also makes: the injected message, or a span of it holding the line.
      if (result.culprit !== null) {
        expect(result.culprit.path).toEqual(['prompt', planted.injectedMessage])
        expect(result.culprit.text).toContain(INJECTED)
      }
    }
    const tiny = await contextAttribution(planted.agent, factual, {
      isBad: refunded,
      step: 1,
      seed: 11,
      budget: { maxRollouts: 10 },
    })
    expect(tiny.culprit).toBeNull()
    expect(tiny.parts.some((part) => !part.evaluated || part.rolloutsUsed < 4)).toBe(true)
  })

  it('is byte-identical at any concurrency for a seed', async () => {
    const factual = await firstBadRun(planted.agent, 4, refunded)
    const one = await contextAttribution(planted.agent, factual, {
      isBad: refunded,
      step: 1,
      seed: 4,
      concurrency: 1,
    })
    const many = await contextAttribution(planted.agent, factual, {
      isBad: refunded,
      step: 1,
      seed: 4,
      concurrency: 16,
    })
    expect(JSON.stringify(many)).toBe(JSON.stringify(one))
  })

  it('sequential: false runs every arm to `rollouts` with Tango intervals; crn: false uses Newcombe', async () => {
    const factual = await firstBadRun(planted.agent, 2, refunded)
    const fixed = valid(
      await contextAttribution(planted.agent, factual, {
        isBad: refunded,
        step: 1,
        seed: 2,
        sequential: false,
      }),
    )
    expect(fixed.methods).toMatchObject({ effect: 'tango-corrected', sequential: null })
    expect(fixed.parts).toHaveLength(planted.messages)
    expect(fixed.parts.every((part) => part.rolloutsUsed === 32)).toBe(true)
    expect(fixed.culprit?.text).toBe(INJECTED)
    const independent = valid(
      await contextAttribution(planted.agent, factual, {
        isBad: refunded,
        step: 1,
        seed: 2,
        sequential: false,
        crn: false,
        rollouts: 48,
      }),
    )
    expect(independent.methods.effect).toBe('newcombe')
    expect(independent.culprit?.path).toEqual(['prompt', planted.injectedMessage])
  })

  it('reports progress against the most the attribution can spend', async () => {
    const factual = await firstBadRun(planted.agent, 6, refunded)
    const seen: Array<{ completed: number; total: number }> = []
    const result = await contextAttribution(planted.agent, factual, {
      isBad: refunded,
      step: 1,
      seed: 6,
      concurrency: 1,
      onProgress: (progress) => seen.push(progress),
    })
    expect(seen).toHaveLength(result.rolloutsUsed)
    expect(seen.at(-1)?.completed).toBe(result.rolloutsUsed)
    expect(seen.every((progress) => progress.total >= result.rolloutsUsed)).toBe(true)
  })
})

describe('contextAttribution: custom contexts and invalid options', () => {
  const stringContext = defineAgent<Json, string>({
    name: 'string-context',
    input: {},
    async run(_input, ctx) {
      const text = `Hello. ${INJECTED} Bye.`
      const action = await ctx.step(
        'decide',
        (rng, view) => (rng() < (String(view.context).includes(INJECTED) ? 0.9 : 0.05) ? 'refund' : 'deny'),
        { context: text },
      )
      return action === 'refund' ? 'bad' : 'good'
    },
  })

  it('takes a custom context apart with the user’s parts and ablate', async () => {
    const factual = await firstBadRun(stringContext, 1, refunded)
    await expect(
      contextAttribution(stringContext, factual, { isBad: refunded, step: 0, seed: 1 }),
    ).rejects.toThrow(/contextAttribution: `?step`?.*parts/s)
    const sentences = ['Hello.', INJECTED, 'Bye.']
    const result = valid(
      await contextAttribution(stringContext, factual, {
        isBad: refunded,
        step: 0,
        seed: 1,
        parts: () => sentences.map((text, i) => ({ path: [i], label: `sentence ${i + 1}`, text })),
        ablate: (_context, path) => sentences.filter((_, i) => i !== path[0]).join(' '),
      }),
    )
    expect(result.ablation).toBe('custom')
    expect(result.culprit).toMatchObject({ label: 'sentence 2', text: INJECTED })
    // The custom part's value is not a string at its path in a string context: no refinement.
    expect(result.refinement).toBeNull()
  })

  it('names the option it cannot use', async () => {
    const planted = plantedKeys(3)
    const factual = await firstBadRun(planted.agent, 3, refunded)
    const attempt = (options: Record<string, unknown>) =>
      contextAttribution(planted.agent, factual, { isBad: refunded, step: 1, ...options })
    await expect(attempt({ step: 9 })).rejects.toMatchObject({
      name: 'InvalidOptionError',
      option: 'step',
      expected: 'a step index of the factual run, 0 to 2',
    })
    await expect(attempt({ step: 0 })).rejects.toMatchObject({
      option: 'step',
      expected: expect.stringMatching(/context/),
    })
    await expect(attempt({ step: -1 })).rejects.toBeInstanceOf(InvalidOptionError)
    await expect(attempt({ ablation: 'mask' })).rejects.toMatchObject({ option: 'ablation' })
    await expect(attempt({ placeholder: 3 })).rejects.toMatchObject({ option: 'placeholder' })
    await expect(attempt({ parts: () => 'ticket' })).rejects.toMatchObject({ option: 'parts' })
    await expect(attempt({ parts: () => [{ path: 'ticket' }] })).rejects.toMatchObject({
      option: 'parts(context)[0]',
    })
    await expect(attempt({ rollouts: 0 })).rejects.toMatchObject({ option: 'rollouts' })
  })

  it('refuses a context with fewer than two parts', async () => {
    const single = defineAgent<Json, string>({
      name: 'single-key',
      input: {},
      async run(_input, ctx) {
        const action = await ctx.step('decide', (rng) => (rng() < 0.5 ? 'refund' : 'deny'), {
          context: { ticket: INJECTED },
        })
        return action === 'refund' ? 'bad' : 'good'
      },
    })
    const factual = await firstBadRun(single, 1, refunded)
    await expect(contextAttribution(single, factual, { isBad: refunded, step: 0 })).rejects.toMatchObject({
      option: 'step',
      expected: 'a step whose context has at least 2 parts (keys or messages) to compare',
      received: 'step 0 "decide" with 1 part (key "ticket")',
    })
  })
})

describe('contextAttributionResolved: the contrastive arm at the locus as the intact arm', () => {
  it('gives the same result as running that arm again, and spends only the rollouts it runs', async () => {
    let compared = 0
    for (let seed = 0; seed < 30; seed++) {
      const planted = plantedKeys(seed)
      const factual = await firstBadRun(planted.agent, seed, refunded)
      const { result: contrastiveResult, arms } = await contrastiveArms(
        factual,
        resolveContrastiveOptions(planted.agent, factual, { isBad: refunded, seed }),
      )
      const locus = contrastiveResult.locus
      // The decide step is the one with a context to take apart.
      if (locus !== 1) continue
      const options = { isBad: refunded, step: locus, seed }
      const fresh = await contextAttribution(planted.agent, factual, options)
      const reused = await contextAttributionResolved(
        factual,
        resolveContextAttributionOptions(planted.agent, factual, options),
        CONTEXT_CODECS,
        arms[locus]!,
      )
      const taken = arms[locus]!.rolloutsRun
      expect(taken).toBeGreaterThan(0)
      // Intact rollouts the fresh run needed beyond those the contrastive arm had are still run.
      const freshIntact = fresh.intact.n
      expect(reused.rolloutsUsed).toBe(fresh.rolloutsUsed - Math.min(taken, freshIntact))
      const { rolloutsUsed: _a, intact: freshEstimate, ...freshRest } = fresh
      const { rolloutsUsed: _b, intact: reusedEstimate, ...reusedRest } = reused
      expect(reusedRest).toEqual(freshRest)
      // The intact estimate counts every reused rollout, also those the parts did not need.
      expect(reusedEstimate.n).toBe(Math.max(taken, freshIntact))
      if (taken <= freshIntact) expect(reusedEstimate).toEqual(freshEstimate)
      compared++
    }
    expect(compared).toBeGreaterThanOrEqual(5)
  })

  it('takes nothing from an arm of another seed', async () => {
    const planted = plantedKeys(3)
    const factual = await firstBadRun(planted.agent, 3, refunded)
    const { arms } = await contrastiveArms(
      factual,
      resolveContrastiveOptions(planted.agent, factual, { isBad: refunded, seed: 99 }),
    )
    const options = { isBad: refunded, step: 1, seed: 3 }
    const reused = await contextAttributionResolved(
      factual,
      resolveContextAttributionOptions(planted.agent, factual, options),
      CONTEXT_CODECS,
      arms[1]!,
    )
    expect(reused).toEqual(await contextAttribution(planted.agent, factual, options))
  })
})

describe('contextAttribution: replays that error are counted per arm, never read as "no effect"', () => {
  /**
   * Decides from `{ ticket, policy, notes }`, each JSON text; `parses` names the keys the step's
   * own code runs `JSON.parse` on, so removing one of them throws in every replay of its arm.
   */
  function parsingAgent(parses: readonly string[]) {
    return defineAgent<Json, string>({
      name: `parsing-${parses.join('-')}`,
      input: {},
      async run(_input, ctx) {
        const action = await ctx.step(
          'decide',
          (rng, view) => {
            const context = view.context as Record<string, string>
            for (const key of parses) JSON.parse(context[key] as string)
            return rng() < (JSON.stringify(context).includes(INJECTED) ? 0.9 : 0.05) ? 'refund' : 'deny'
          },
          {
            context: {
              ticket: JSON.stringify({ message: `My parcel is late. ${INJECTED}` }),
              policy: JSON.stringify({ refunds: 'only when refundable' }),
              notes: JSON.stringify({ tier: 'gold' }),
            },
          },
        )
        const reply = await ctx.step('reply', (rng) => (rng() < 0.85 ? 'sent' : 'held'))
        return action === 'refund' && reply === 'sent' ? 'bad' : 'good'
      },
    })
  }

  it('names the culprit, and reports the part whose removal breaks the agent as undecided with its error count', async () => {
    const agent = parsingAgent(['policy'])
    const factual = await firstBadRun(agent, 1, refunded)
    const result = valid(await contextAttribution(agent, factual, { isBad: refunded, step: 0, seed: 1 }))
    expect(result.parts.map((part) => part.label)).toEqual(['key "ticket"', 'key "policy"', 'key "notes"'])
    const [ticket, policy, notes] = result.parts
    expect(result.culprit?.label).toBe('key "ticket"')
    expect(ticket?.errors).toBeUndefined()
    expect(notes?.errors).toBeUndefined()
    expect(notes?.direction).toBe('none')
    expect(result.intactErrors).toBeUndefined()
    // Every replay of the policy arm threw: nothing was scored, so nothing was decided.
    expect(policy?.rolloutsUsed).toBeGreaterThan(0)
    expect(policy?.errors).toEqual({
      count: policy?.rolloutsUsed,
      of: policy?.rolloutsUsed,
      first: expect.stringMatching(/^SyntaxError: /) as string,
    })
    expect(policy?.pBad.n).toBe(0)
    expect(policy?.direction).toBe('undecided')
    const lines = formatContextAttribution(result)
    expect(lines).toContain(
      `  key "policy": ${policy?.rolloutsUsed} of ${policy?.rolloutsUsed} replays errored (${policy?.errors?.first}), so it is undecided`,
    )
  })

  it('says every part is undecided, instead of abstaining, when every arm errored', async () => {
    const agent = parsingAgent(['ticket', 'policy', 'notes'])
    const factual = await firstBadRun(agent, 2, refunded)
    const result = valid(await contextAttribution(agent, factual, { isBad: refunded, step: 0, seed: 2 }))
    expect(result.culprit).toBeNull()
    expect(result.parts).toHaveLength(3)
    for (const part of result.parts) {
      expect(part.direction).toBe('undecided')
      expect(part.errors?.count).toBe(part.rolloutsUsed)
    }
    const lines = formatContextAttribution(result)
    expect(lines[0]).toMatch(
      /^context attribution: undecided: replays errored in the comparison of every one of the 3 parts, so none could be tested/,
    )
    expect(lines.join('\n')).not.toContain('was found to matter')
    expect(lines.join('\n')).toContain("attribute.context.ablation: 'placeholder' keeps each part's place")
  })

  it('reports the same errors at any concurrency', async () => {
    const agent = parsingAgent(['policy'])
    const factual = await firstBadRun(agent, 3, refunded)
    const run = (concurrency: number) =>
      contextAttribution(agent, factual, { isBad: refunded, step: 0, seed: 3, concurrency })
    expect(JSON.stringify(await run(16))).toBe(JSON.stringify(await run(1)))
  })
})
