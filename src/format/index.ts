// The one formatter: verdicts and attributions as terminal text (matcher messages, the reporter's
// table, `causal-replay show`). Plain data in, plain text out.
export { formatVerdictMessage, claim, type VerdictMessageOptions } from './verdict-message.js'
export { formatContrastive, formatShapley, actionText } from './attribution.js'
export { formatSummaryTable, type SummaryOptions, type SummaryRow } from './summary-table.js'
export { shortenContext, cutMiddle, type ContextLimits } from './context.js'
export { formatTable, type Column } from './table.js'
export { confidenceLevel, effect, percent, probability, signedPercent } from './numbers.js'
