import { showControls } from '../text/visible.js'

// Every string that reaches the page from an artifact is agent text (actions, tool results, step
// names, even the test name): it goes through one of these functions, never into markup raw.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * Escapes text for an HTML text node or a quoted attribute value (`&`, `<`, `>`, `"` and `'`), so
 * `<script>` in agent output renders as text. Also safe inside inline SVG, which is parsed as HTML.
 * Control characters become visible escapes (`\u202e`): a bidi override in an action would
 * otherwise reorder the JSON on screen and make the page show what the agent did not do.
 */
export function escapeHtml(text: string): string {
  return showControls(text).replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character)
}

/**
 * Serializes a value as JSON for a `<script type="application/json">` element. `<` becomes
 * `\u003c` so no `</script>` or `<!--` inside a string can end the element early; `>` and `&` are
 * escaped for the same reason in older parsers, and U+2028/U+2029 because they end lines in JS.
 * Control characters are JSON escapes too, so the page's source holds no bidi override either.
 * `JSON.parse` of the element's text gives the value back unchanged.
 */
export function jsonForScript(value: unknown): string {
  // Raw control characters can only sit inside JSON strings, where `\uXXXX` is the same character.
  return showControls(JSON.stringify(value))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/**
 * A relative path (with `/` or `\` separators) as an href: each segment percent-encoded, so a
 * name with `#`, `?`, `:` or quotes stays one relative link and can never become `javascript:`.
 */
export function hrefForRelativePath(path: string): string {
  return path
    .split(/[\\/]/)
    .map((segment) =>
      segment === '' || segment === '.' || segment === '..' ? segment : encodeURIComponent(segment),
    )
    .join('/')
}
