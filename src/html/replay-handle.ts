import type { ReplayHandle } from '../attribute/schema.js'
import type { Artifact } from '../verdict/schema.js'
import { markup, type Markup } from './markup.js'

/** The run to replay: the verdict's handle, else the attribution's, else the failing trajectory's. */
export function replayHandleOf(artifact: Artifact): ReplayHandle | null {
  const source =
    artifact.verdict.replay ?? artifact.contrastive?.factual ?? artifact.shapley?.factual ?? artifact.failing
  return source === null || source === undefined ? null : { seed: source.seed, rollout: source.rollout }
}

/** The code that brings the failing run back: `record(agent, { seed, rollout })`. */
export function replaySnippet(handle: ReplayHandle): string {
  return `import { record } from 'vitest-causal-replay'\n\nconst factual = await record(agent, { seed: ${handle.seed}, rollout: ${handle.rollout} })`
}

/** The replay handle `{ seed, rollout }` with a copyable snippet; null when no run was kept. */
export function renderReplayHandle(artifact: Artifact): Markup | null {
  const handle = replayHandleOf(artifact)
  if (handle === null) return null
  return markup`<section id="replay">
<h2>Replay this run</h2>
<p class="section-lead">Replay handle <code data-replay-handle>{ seed: ${handle.seed}, rollout: ${handle.rollout} }</code>: rollout ${handle.rollout} of <code>runRollouts</code> with this seed. Here <code>agent</code> is the agent ${artifact.verdict.agent} (or the <code>agent.on(input)</code> or <code>agent.over(dataset)</code> scenario the test ran: over a dataset, the same seed and rollout run the same case).</p>
<div class="replay-handle">
<pre id="replay-snippet"><code>${replaySnippet(handle)}</code></pre>
<button type="button" class="copy-button" data-copy-target="replay-snippet">Copy</button>
</div>
</section>`
}
