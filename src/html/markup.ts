import { escapeHtml } from './escape.js'

/**
 * A piece of HTML that is already safe to insert. Only {@link markup} (which escapes everything it
 * interpolates) and {@link trusted} (for constants of this library) make one, so agent text can
 * reach the page only escaped: forgetting to escape is a type error, not a hole.
 */
export class Markup {
  constructor(
    /** The HTML source. */
    readonly source: string,
  ) {}

  toString(): string {
    return this.source
  }
}

/** What {@link markup} accepts: markup as is, text escaped, numbers printed, and nothing for null, undefined and false. */
export type Interpolation = Markup | string | number | null | undefined | false | readonly Interpolation[]

/**
 * Tagged template for HTML: every interpolated string is escaped, nested {@link Markup} is kept,
 * arrays are concatenated. Interpolate into text or into double-quoted attribute values only.
 * (Not named `html`: Prettier would reformat every template so tagged, whitespace in `<pre>` and
 * around the hashed page script included.)
 */
export function markup(strings: TemplateStringsArray, ...values: Interpolation[]): Markup {
  let source = strings[0] ?? ''
  values.forEach((value, index) => {
    source += render(value) + (strings[index + 1] ?? '')
  })
  return new Markup(source)
}

/** Wraps HTML written by this library (the stylesheet, the page script). Never pass agent text. */
export function trusted(source: string): Markup {
  return new Markup(source)
}

function render(value: Interpolation): string {
  if (value instanceof Markup) return value.source
  if (value === null || value === undefined || value === false) return ''
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  if (typeof value === 'string') return escapeHtml(value)
  return value.map(render).join('')
}
