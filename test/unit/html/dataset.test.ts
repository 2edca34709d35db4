import { describe, expect, it } from 'vitest'
import { check, defineAgent, defineDataset, rarely } from '../../../src/index.js'
import { renderReportHtml } from '../../../src/html/html.js'

/** Two cases always bad among four always good: a per-case claim names both. */
const coin = defineAgent<{ p: number }, string>({
  name: 'coin',
  run: async ({ p }, ctx) => ctx.step('decide', (rng) => (rng() < p ? 'bad' : 'good')),
})
const coins = defineDataset(
  'coins',
  [1, 0, 0, 1, 0, 0].map((p, index) => ({ id: `case-${index}`, input: { p } })),
)

/** The cells of the page's per-case table, by case id, tags stripped. */
function cells(page: string): Map<string, string[]> {
  const rows = [...page.matchAll(/<tr data-case="([^"]*)"[^>]*>([\s\S]*?)<\/tr>/g)]
  return new Map(
    rows.map(([, id, body]) => [
      id ?? '',
      [...(body ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell]) =>
        (cell ?? '').replace(/<[^>]*>/g, '').replace(/&quot;/g, '"'),
      ),
    ]),
  )
}

describe("the page's per-case table", () => {
  it("shows each violating case's attribution: the run it replayed and the locus, or why none ran", async () => {
    const { artifact, verdict } = await check(
      coin.over(coins),
      rarely((t) => t.output === 'bad', {
        atMost: 0.25,
        per: 'case',
        seed: 3,
        maxRollouts: 300,
        attribute: { rollouts: 8 },
        label: 'bad',
      }),
    )
    expect(verdict.kind).toBe('fail')
    const attributions = artifact.verdict.dataset?.attributions ?? []
    expect(attributions.map((entry) => entry.id).sort()).toEqual(['case-0', 'case-3'])
    // A case bad every time stays bad whatever its one step redraws: nothing rescues it.
    expect(attributions.every((entry) => entry.attributed && entry.locus === null)).toBe(true)
    const page = renderReportHtml(artifact)
    expect(page).toContain('data-sort-key="attribution"')
    const table = cells(page)
    for (const entry of attributions) {
      const last = table.get(entry.id)?.at(-1)
      expect(last).toBe(`rollout ${entry.rollout}: no causal locus found`)
    }
    // A case shown to satisfy the claim was not attributed: its cell is empty.
    expect(table.get('case-1')?.at(-1)).toBe('—')

    // A locus found, and a case the budget left unattributed, as the page shows them (names escaped).
    const dataset = artifact.verdict.dataset!
    const shown = renderReportHtml({
      ...artifact,
      verdict: {
        ...artifact.verdict,
        dataset: {
          ...dataset,
          attributions: [
            { id: 'case-0', rollout: 4, attributed: true, locus: { index: 0, name: 'decide <b>' } },
            { id: 'case-3', rollout: 9, attributed: false, locus: null },
          ],
        },
      },
    })
    expect(shown).toContain('step 0 &quot;decide &lt;b&gt;&quot;')
    expect(cells(shown).get('case-3')?.at(-1)).toContain('not attributed (rollout 9')
  })

  it('has no attribution column when nothing was attributed', async () => {
    const { artifact } = await check(
      coin.over(coins),
      rarely((t) => t.output === 'bad', {
        atMost: 0.25,
        per: 'case',
        seed: 3,
        maxRollouts: 300,
        attribute: false,
      }),
    )
    expect(artifact.verdict.dataset?.attributions).toBeUndefined()
    expect(renderReportHtml(artifact)).not.toContain('data-sort-key="attribution"')
  })
})
