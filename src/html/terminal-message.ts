import { formatVerdictMessage } from '../text/verdict-message.js'
import type { Artifact } from '../verdict/schema.js'
import { markup, type Markup } from './markup.js'

/** The verdict as the test output printed it (the terminal formatter's text), folded away. */
export function renderTerminalMessage(artifact: Artifact): Markup {
  return markup`<section id="terminal-message">
<details class="panel">
<summary>The test output</summary>
<pre>${formatVerdictMessage(artifact)}</pre>
</details>
</section>`
}
