// The HTML renderings of verdicts and attributions: one report per artifact, one index per run.
export { renderReportHtml } from './html.js'
export { renderIndexHtml, type ReportIndexEntry } from './index-page.js'
export { writeReportHtml } from './write.js'
export { escapeHtml, jsonForScript } from './escape.js'
