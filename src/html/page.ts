import { CLIENT_SCRIPT, CLIENT_SCRIPT_HASH } from './client-script.js'
import { jsonForScript } from './escape.js'
import { markup, trusted, type Markup } from './markup.js'
import { REPORT_CSS } from './styles.js'

/** What {@link renderPage} puts in the document. */
export interface PageParts {
  /** The document title (text). */
  title: string
  /** The content of `<body>`. */
  body: Markup
  /** A value embedded as JSON in `<script type="application/json" id="causal-replay-data">`, if any. */
  data?: unknown
}

// Nothing may be fetched: no network, no other file. The policy makes that a property of the page
// (default-src 'none'), and allows only our own script by hash, so even text that escaped escaping
// could not run a script. Inline styles are allowed: bar widths are set with style attributes.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src ${CLIENT_SCRIPT_HASH}`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/** A complete, self-contained HTML document: inline CSS, the page script, no external URL. */
export function renderPage(parts: PageParts): string {
  const data =
    parts.data === undefined
      ? null
      : trusted(
          `<script type="application/json" id="causal-replay-data">${jsonForScript(parts.data)}</script>`,
        )
  const page = markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="vitest-causal-replay">
<title>${parts.title}</title>
<style>${trusted(REPORT_CSS)}</style>
</head>
<body>
${parts.body}
${data}
<script>${trusted(CLIENT_SCRIPT)}</script>
</body>
</html>
`
  return page.source
}
