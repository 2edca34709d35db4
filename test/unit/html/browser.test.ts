// The report in a real browser: Debian's Chromium driven by playwright-core (never downloaded).
// CI installs it with apt-get (.ci/run); without /usr/bin/chromium these tests fail in CI and are
// skipped locally, saying why (see describeWithProgram).
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { renderReportHtml } from '../../../src/html/html.js'
import type { Artifact } from '../../../src/verdict/schema.js'
import { defineAgent } from '../../../src/index.js'
import { plantedArtifact, rarelyArtifact } from './artifacts.js'
import { check, defineDataset, rarely } from '../../../src/index.js'
import { plantedContextAgent, refunded } from '../verdict/gate-helpers.js'
import { describeWithProgram, type OutsideProgram } from '../../outside-program.js'

const CHROMIUM: OutsideProgram = {
  name: 'Chromium',
  path: '/usr/bin/chromium',
  install: 'apt-get install chromium',
}
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
/** Where the rendered page and its screenshots are kept for a human to look at (gitignored). */
const RESULTS = join(import.meta.dirname, '..', '..', '..', 'test-results')

describeWithProgram(CHROMIUM, 'the HTML report in Chromium', () => {
  let browser: Browser
  let artifact: Artifact
  let file: string

  beforeAll(async () => {
    ;[browser, artifact] = await Promise.all([
      chromium.launch({ executablePath: CHROMIUM.path, args: ARGS }),
      plantedArtifact(),
    ])
    await mkdir(RESULTS, { recursive: true })
    file = join(RESULTS, 'report.html')
    await writeFile(file, renderReportHtml(artifact))
  })

  afterAll(async () => {
    await browser?.close()
  })

  /** Opens a page that records console errors and warnings, page errors and any request that is not the file itself. */
  async function open(url: string) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, colorScheme: 'light' })
    const problems: string[] = []
    const requests: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
    page.on('request', (request) => {
      if (request.url() !== url) requests.push(request.url())
    })
    await page.goto(url)
    return { page, problems, requests }
  }

  const pwned = (page: Page) => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)

  it('highlights the locus step, switches the chart to Shapley, runs no planted script and logs no error', async () => {
    const url = pathToFileURL(file).href
    const { page, problems, requests } = await open(url)

    // The locus card: exactly one, the attributed step, drawn differently from the others.
    const locus = page.locator('[data-locus="true"]')
    await expect(locus.count()).resolves.toBe(1)
    expect(await locus.getAttribute('data-step')).toBe(String(artifact.contrastive?.locus))
    expect(await locus.locator('.tag-locus').textContent()).toBe('causal locus')
    const border = (selector: string) =>
      page.locator(selector).evaluate((element) => getComputedStyle(element).borderTopColor)
    expect(await border('[data-locus="true"]')).not.toBe(await border('#step-0'))

    // The toggle: contrastive first, Shapley after a click, and back.
    expect(await page.locator('#chart-contrastive').isVisible()).toBe(true)
    expect(await page.locator('#chart-shapley').isVisible()).toBe(false)
    await page.click('#tab-shapley')
    expect(await page.locator('#chart-shapley svg[data-chart="shapley"]').isVisible()).toBe(true)
    expect(await page.locator('#chart-contrastive').isVisible()).toBe(false)
    expect(await page.getAttribute('#tab-shapley', 'aria-selected')).toBe('true')
    expect(await page.getAttribute('#attribution', 'data-view')).toBe('shapley')
    await page.keyboard.press('ArrowLeft')
    expect(await page.locator('#chart-contrastive').isVisible()).toBe(true)

    // Planted markup shows as text and never runs.
    expect(await pwned(page)).toBeUndefined()
    expect(await page.locator('img').count()).toBe(0)
    expect(await page.locator('#step-0 pre').first().textContent()).toContain('<script>window.__pwned')
    expect(await page.locator('h1').textContent()).toContain('planted<b>agent</b>')

    await page.screenshot({ path: join(RESULTS, 'report.png'), fullPage: true })

    // Dark mode: the palette follows prefers-color-scheme.
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    const luminance = (rgb: string) =>
      (rgb.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, part) => sum + Number(part), 0)
    const light = await background()
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(luminance(await background())).toBeLessThan(luminance(light))
    await page.screenshot({ path: join(RESULTS, 'report-dark.png') })

    expect(problems).toEqual([])
    expect(requests).toEqual([])
    await page.close()
  })

  it('keeps planted markup inert by escaping alone, without the Content-Security-Policy', async () => {
    const page = await browser.newPage()
    const withoutPolicy = renderReportHtml(artifact).replace(
      /<meta http-equiv="Content-Security-Policy"[^>]*>/,
      '',
    )
    expect(withoutPolicy).not.toContain('Content-Security-Policy')
    await page.setContent(withoutPolicy)
    expect(await pwned(page)).toBeUndefined()
    expect(await page.locator('img').count()).toBe(0)
    // The page script did run (the tabs work), so the absence of __pwned is not a dead page.
    await page.click('#tab-shapley')
    expect(await page.locator('#chart-shapley').isVisible()).toBe(true)
    await page.close()
  })

  it('copies the replay snippet to the clipboard', async () => {
    const context = await browser.newContext()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    const page = await context.newPage()
    await page.goto(pathToFileURL(file).href)
    await page.click('[data-copy-target="replay-snippet"]')
    await expect.poll(() => page.locator('.copy-button').textContent()).toBe('Copied')
    const handle = artifact.verdict.replay
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
      `await record(agent, { seed: ${handle?.seed}, rollout: ${handle?.rollout} })`,
    )
    await context.close()
  })

  it('renders a passing verdict with no attribution and no error', async () => {
    const quiet = defineAgent({
      name: 'quiet',
      input: null,
      async run(_input, ctx) {
        return await ctx.step('decide', () => 'escalate')
      },
    })
    const passing = await rarelyArtifact(quiet, (trajectory) => trajectory.output === 'refund', {
      atMost: 0.05,
      seed: 4,
    })
    const passFile = join(RESULTS, 'report-pass.html')
    await writeFile(passFile, renderReportHtml(passing))
    const { page, problems } = await open(pathToFileURL(passFile).href)
    expect(passing.verdict.kind).toBe('pass')
    expect(await page.locator('.badge').first().textContent()).toBe('pass')
    expect(await page.locator('[data-locus]').count()).toBe(0)
    expect(await page.locator('[data-chart-tab]').count()).toBe(0)
    await page.close()
    expect(problems).toEqual([])
  })

  it('marks the culprit span in the locus context and draws a bar for every part', async () => {
    const { artifact: withContext } = await check(
      plantedContextAgent,
      rarely(refunded, { atMost: 0.05, seed: 3, label: 'refund' }),
    )
    const culprit = withContext.contextAttribution?.culprit
    expect(culprit?.path).toEqual(['ticket'])
    const contextFile = join(RESULTS, 'report-context.html')
    await writeFile(contextFile, renderReportHtml(withContext))
    const { page, problems } = await open(pathToFileURL(contextFile).href)

    const mark = page.locator('#locus-context mark.culprit')
    await expect(mark.count()).resolves.toBe(1)
    expect(await mark.textContent()).toBe(culprit?.text)
    expect(await mark.getAttribute('title')).toMatch(/^removing it rescues \d+\.\d% \[/)
    // The mark is drawn: a background other than the text's, inside the ticket part.
    expect(await mark.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe(
      'rgba(0, 0, 0, 0)',
    )
    expect(await page.locator('.context-part.is-culprit .field-label').textContent()).toBe('key "ticket"')

    const bars = page.locator('#context-attribution .effect-bar')
    await expect(bars.count()).resolves.toBe(3)
    for (let index = 0; index < 3; index++) {
      const box = await bars.nth(index).boundingBox()
      expect(box?.width).toBeGreaterThan(100)
      const ci = await bars.nth(index).locator('.effect-ci').boundingBox()
      expect(ci?.width).toBeGreaterThan(0)
    }
    expect(await page.locator('#context-attribution tr.is-culprit th').textContent()).toBe('key "ticket"')
    await page.close()
    expect(problems).toEqual([])
  })
  it("sorts a dataset claim's per-case table by the header clicked", async () => {
    const coin = defineAgent<{ p: number }, string>({
      name: 'coin',
      run: async ({ p }, ctx) => ctx.step('decide', (rng) => (rng() < p ? 'bad' : 'good')),
    })
    const cases = defineDataset(
      'coins',
      [1, 0.5, 0, 0.2, 0, 0.9].map((p, index) => ({ id: `case-${index}`, input: { p } })),
    )
    const { artifact: overDataset } = await check(
      coin.over(cases),
      rarely((t) => t.output === 'bad', { atMost: 0.05, seed: 2, attribute: false, label: 'bad' }),
    )
    const datasetFile = join(RESULTS, 'report-dataset.html')
    await writeFile(datasetFile, renderReportHtml(overDataset))
    const { page, problems } = await open(pathToFileURL(datasetFile).href)

    const ids = () =>
      page
        .locator('#dataset tbody tr')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-case')))
    const rates = () =>
      page
        .locator('#dataset tbody tr td:nth-child(5)')
        .evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('data-sort-value'))))
    // Worst first, every case listed, the attributed one marked.
    expect(await ids()).toHaveLength(6)
    const initial = await rates()
    expect(initial).toEqual([...initial].sort((a, b) => b - a))
    expect(await page.locator('#dataset tr[data-worst="true"]').count()).toBe(
      overDataset.verdict.dataset?.worst === null ? 0 : 1,
    )

    await page.locator('#dataset th button[data-sort-key="case"]').click()
    expect(await ids()).toEqual(['case-5', 'case-4', 'case-3', 'case-2', 'case-1', 'case-0'])
    expect(
      await page.locator('#dataset th:has(button[data-sort-key="case"])').getAttribute('aria-sort'),
    ).toBe('descending')
    await page.locator('#dataset th button[data-sort-key="case"]').click()
    expect(await ids()).toEqual(['case-0', 'case-1', 'case-2', 'case-3', 'case-4', 'case-5'])
    await page.locator('#dataset th button[data-sort-key="rate"]').click()
    expect(await rates()).toEqual([...initial].sort((a, b) => b - a))
    await page.close()
    expect(problems).toEqual([])
  })
})
