/** A column of a text table: left-aligned by default. */
export interface Column {
  header: string
  align?: 'left' | 'right'
}

// SGR escape sequences (colors) take no room on screen.
const ESCAPE_SEQUENCE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/** The on-screen width of a cell: UTF-16 code units without color codes (▶, ←, –, … are one column). */
function visibleLength(cell: string): number {
  return cell.replace(ESCAPE_SEQUENCE, '').length
}

/**
 * Lays rows out in columns separated by two spaces; trailing spaces are trimmed so snapshots and
 * copied text stay clean. Cells may carry color codes: widths count what is visible.
 */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...rows.map((row) => visibleLength(row[index] ?? ''))),
  )
  const line = (cells: readonly string[]) =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? ''
        const padding = ' '.repeat(Math.max(0, (widths[index] ?? 0) - visibleLength(cell)))
        return column.align === 'right' ? padding + cell : cell + padding
      })
      .join('  ')
      .trimEnd()
  return [line(columns.map((column) => column.header)), ...rows.map(line)]
}
