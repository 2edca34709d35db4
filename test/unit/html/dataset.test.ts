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
    // The one step decides: both attributions name it.
    expect(attributions.every((entry) => entry.attributed && entry.locus?.name === 'decide')).toBe(true)
    const page = renderReportHtml(artifact)
    expect(page).toContain('data-sort-key="attribution"')
    const table = cells(page)
    for (const entry of attributions) {
      const last = table.get(entry.id)?.at(-1)
      expect(last).toContain(`rollout ${entry.rollout}`)
      if (entry.attributed && entry.locus !== null) {
        expect(last).toContain(`step ${entry.locus.index} "${entry.locus.name}"`)
      }
    }
    // A case shown to satisfy the claim was not attributed: its cell is empty.
    expect(table.get('case-1')?.at(-1)).toBe('—')
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
