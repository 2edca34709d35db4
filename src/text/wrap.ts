/**
 * Wraps `text` at spaces into lines of at most `width` characters (a word longer than that gets a
 * line of its own, uncut), the lines after the first indented by `indent`. Line breaks in `text`
 * are kept. Wrapping instead of cutting keeps every word of a sentence that must be read whole,
 * such as an error message.
 */
export function wrapWords(text: string, width: number, indent = ''): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = lines.length === 0 ? '' : indent
    let empty = true
    for (const word of paragraph.split(' ')) {
      if (!empty && line.length + 1 + word.length > width) {
        lines.push(line)
        line = indent + word
      } else {
        line = empty ? line + word : `${line} ${word}`
      }
      empty = false
    }
    lines.push(line.trimEnd())
  }
  return lines
}
