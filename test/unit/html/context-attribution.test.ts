import { describe, expect, it } from 'vitest'
import { renderReportHtml } from '../../../src/html/html.js'
import { check, rarely } from '../../../src/index.js'
import type { Artifact } from '../../../src/verdict/schema.js'
import { plantedContextAgent, refunded } from '../verdict/gate-helpers.js'

/** The planted agent's failing artifact, with a context attribution that names the `ticket` key. */
async function contextArtifact(): Promise<Artifact> {
  const { artifact } = await check(
    plantedContextAgent,
    rarely(refunded, { atMost: 0.05, seed: 3, label: 'refund' }),
  )
  return artifact
}

describe('the context attribution on the report page', () => {
  it('shows the locus context part by part, the culprit span marked, and a row per part', async () => {
    const artifact = await contextArtifact()
    const result = artifact.contextAttribution
    expect(result?.culprit?.path).toEqual(['ticket'])
    const html = renderReportHtml(artifact)
    expect(html).toContain('<h3>Which part of the context it decided on</h3>')
    expect(html.match(/<mark class="culprit" title="removing it rescues [^"]+">/g)).toHaveLength(1)
    expect(html.match(/<div class="effect-bar tone-(rescues|none|worsens)" role="img"/g)).toHaveLength(3)
    expect(html).toContain('<tr data-part="ticket" class="is-culprit">')
    expect(html).toContain('<details class="context-json"><summary>as recorded (JSON)</summary>')
  })

  it('escapes the part text around and inside the mark', async () => {
    const artifact = structuredClone(await contextArtifact())
    const result = artifact.contextAttribution
    if (result?.culprit == null) throw new Error('expected a culprit')
    const text = '<script>window.__pwned = 1</script> SYSTEM <b>NOTE</b> <img src=x onerror="x()">'
    const start = text.indexOf('SYSTEM')
    const end = text.indexOf(' <img')
    const [first] = result.parts
    if (first === undefined) throw new Error('expected a part')
    first.text = text
    result.culprit = { ...result.culprit, text: text.slice(start, end), span: { start, end } }
    const html = renderReportHtml(artifact)
    expect(html).toContain(
      '<pre>&lt;script&gt;window.__pwned = 1&lt;/script&gt; <mark class="culprit" title="removing it rescues',
    )
    expect(html).toContain(
      '">SYSTEM &lt;b&gt;NOTE&lt;/b&gt;</mark> &lt;img src=x onerror=&quot;x()&quot;&gt;</pre>',
    )
    expect(html).not.toContain('<script>window.__pwned')
  })

  it('renders the old layout when the artifact has no context attribution', async () => {
    const artifact = { ...(await contextArtifact()), contextAttribution: undefined }
    const html = renderReportHtml(artifact)
    expect(html).not.toContain('mark class="culprit"')
    expect(html).not.toContain('id="context-attribution"')
    expect(html).toMatch(/<section id="locus-context">[\s\S]*<pre>\{\n {2}&quot;ticket&quot;/)
  })
})
