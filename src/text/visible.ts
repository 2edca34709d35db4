/**
 * Characters agent text may carry that change how the text around them looks without showing
 * themselves: C0 controls but tab and line feed (a carriage return or an escape sequence rewrites
 * a terminal line), DEL, C1 controls, and the Unicode bidirectional controls (U+061C, U+200E,
 * U+200F, U+202A–U+202E, U+2066–U+2069), which reorder the characters that follow them, so
 * `{"refund":false}` with a U+202E inside can read as something else.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * `text` with every invisible control character (see above) replaced by its visible escape,
 * `\u202e`: the same spelling as a JSON escape, so a JSON text stays valid JSON of the same value.
 * Line breaks and tabs stay: for text read as lines of its own, such as an error message.
 */
export function showControls(text: string): string {
  return text.replace(INVISIBLE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * {@link showControls} for text printed inside one line (a context line, a table cell): a tab and
 * a line feed are escaped too, as `\t` and `\n`. A raw line feed there would start a line that the
 * text chose, and CI runners obey a line of output that starts with a workflow command
 * (`::error file=a.ts::…` on GitHub Actions), however indented. For JSON text, whose backslashes
 * are already escaped; raw text takes {@link showName}.
 */
export function showOnOneLine(text: string): string {
  return showControls(text.replace(/[\t\n]/g, (character) => (character === '\n' ? '\\n' : '\\t')))
}

/**
 * A name or excerpt the agent or the test gave (agent, label, step, tool, context text), as one
 * line that shows every character it holds: {@link showOnOneLine}, with each backslash doubled
 * first, so a name that spells `\u001b` reads apart from one that holds the control itself, as in
 * a JSON string.
 */
export function showName(text: string): string {
  return showOnOneLine(text.replaceAll('\\', '\\\\'))
}
