import { describe, expect, it } from 'vitest'
import { renderIndexHtml, type ReportIndexEntry } from '../../../src/html/index-page.js'
import { wilson } from '../../../src/stats/wilson.js'

const entries: ReportIndexEntry[] = [
  {
    test: 'usually answers politely',
    file: 'test/support.test.ts',
    verdict: 'pass',
    rate: wilson(98, 100),
    locus: null,
    artifact: 'support/usually-answers-politely.json',
    html: null,
    errors: 13,
  },
  {
    test: 'rarely refunds <script>wrongly</script>',
    file: 'test/support.test.ts',
    verdict: 'fail',
    rate: wilson(23, 100),
    locus: { index: 1, name: 'decide' },
    artifact: 'support/rarely refunds #1.json',
    html: 'support/rarely refunds #1.html',
  },
  {
    test: 'never leaks the key',
    file: 'test/a.test.ts',
    verdict: 'inconclusive',
    rate: wilson(1, 40),
    locus: null,
    artifact: 'a/never.json',
    html: 'a/never.html',
  },
]

describe('renderIndexHtml', () => {
  const page = renderIndexHtml(entries)

  it('lists every report, failures first, with the rate, its interval and method, and the locus', () => {
    const verdicts = [...page.matchAll(/<tr data-verdict="(\w+)">/g)].map((match) => match[1])
    expect(verdicts).toEqual(['fail', 'inconclusive', 'pass'])
    expect(page).toContain('23/100 · 23.0%')
    expect(page).toContain('95% Wilson CI 15.8%–32.2%')
    expect(page).toContain('step 1 · decide')
    expect(page).toContain('1 fail')
  })

  it('shows the errors a gate left out of its rate, and nothing for a gate without errors', () => {
    expect(page).toContain(
      '<div class="warning" data-errors="13">13 rollouts ended in an error, not in the rate</div>',
    )
    expect(page.match(/data-errors=/g)).toHaveLength(1)
  })

  it('links the report and the artifact by encoded relative paths, and skips a missing report', () => {
    expect(page).toContain('href="support/rarely%20refunds%20%231.html"')
    expect(page).toContain('href="support/rarely%20refunds%20%231.json"')
    expect(page).toContain('href="support/usually-answers-politely.json"')
    expect(page).not.toContain('href="null"')
  })

  it('escapes test names and fetches nothing', () => {
    expect(page).toContain('rarely refunds &lt;script&gt;wrongly&lt;/script&gt;')
    expect(page).not.toMatch(/<script>wrongly/)
    expect(page).not.toMatch(/https?:\/\//)
    expect(page).not.toMatch(/\ssrc=/)
  })

  it('counts a fail in a test.fails test as Vitest does: an expected fail, not a failure', () => {
    const expected: ReportIndexEntry = { ...entries[1]!, test: 'fails on purpose', expectedFail: true }
    const other = renderIndexHtml([expected, entries[0]!])
    expect(other).toContain('<title>Causal replay: 0 fail, 1 expected fail, 0 inconclusive, 1 pass</title>')
    expect(other).toContain('<span class="badge badge-pass">1 expected fail</span>')
    expect(other).toContain('<td><span class="badge badge-pass">expected fail</span></td>')
    expect(other).not.toContain('badge-fail">fail<')
    // The page without one keeps its summary as it was.
    expect(page).not.toContain('expected fail')
  })

  it('says so when no assertion wrote a report', () => {
    expect(renderIndexHtml([])).toContain('No rate assertion wrote a report in this run.')
  })
})
