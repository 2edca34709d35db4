// What the typographic characters of the library's texts become in ASCII.
const ASCII_FORMS: Readonly<Record<string, string>> = {
  '–': '-',
  '—': '-',
  '−': '-',
  '…': '...',
  '≥': '>=',
  '≤': '<=',
  '×': 'x',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
}

/**
 * `text` in ASCII: the library's typographic characters as their ASCII forms (`–` → `-`, `…` →
 * `...`, `≥` → `>=`), letters without their accents (`é` → `e`), and any other character as `?`.
 * For texts that become file names: Vitest names an attachment's copy after its annotation.
 */
export function asciiText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/gu, (character) => ASCII_FORMS[character] ?? '?')
}
