import { z } from 'zod'
import type { ToolOptions } from '../../agent/types.js'
import { BooleanField } from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'

const wrapToolsOptionFields = {
  /**
   * Default false. Lets a cassette in use answer these tools' calls from an earlier run (keyed by
   * tool name, arguments and where the call sits) and record new ones: for tools that are slow or
   * cost money and whose result depends only on their arguments.
   */
  cache: BooleanField.optional(),
}
const WrapToolsOptionsSchema: StrictOptions<typeof wrapToolsOptionFields> =
  z.strictObject(wrapToolsOptionFields)

/** Options of every adapter's `wrapTools`. */
export type WrapToolsOptions = z.input<typeof WrapToolsOptionsSchema>

/** The `ctx.tool` options of each wrapped call, from `wrapTools`'s options (checked; a bad one names the field). */
export function toolCallOptions(options: unknown): ToolOptions {
  const parsed = parseOptions('wrapTools', WrapToolsOptionsSchema, options)
  return parsed.cache === true ? { cache: true } : {}
}
