/**
 * The stylesheet of the report and index pages. Colors are custom properties with a dark set
 * under `prefers-color-scheme: dark`, so the page follows the reader's system setting.
 */
export const REPORT_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f6f6f3; --panel: #ffffff; --panel-2: #f0f0ec; --text: #1d1f23; --muted: #5d636b;
  --border: #dcdcd6; --bad: #c2362b; --bad-soft: #f6d3cf; --good: #1d7f48; --good-soft: #d5eedf;
  --accent: #2f55cc; --warn: #a35f00; --locus: #d9861c; --locus-soft: #fff3df; --ci: #1d1f23;
  --code-bg: #f3f3ef; --shadow: 0 1px 2px rgb(0 0 0 / 6%);
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111315; --panel: #1a1d21; --panel-2: #22262b; --text: #e7e7e3; --muted: #a0a6ad;
    --border: #30353c; --bad: #ff7a6e; --bad-soft: #4a2320; --good: #4cc784; --good-soft: #1d3a29;
    --accent: #8aa7ff; --warn: #f0a845; --locus: #f0a845; --locus-soft: #2d2516; --ci: #f1f1ee;
    --code-bg: #15181b; --shadow: none;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.5 var(--sans); }
main { max-width: 1080px; margin: 0 auto; padding: 28px 24px 48px; }
h1 { font-size: 1.45rem; line-height: 1.3; margin: 0; font-weight: 650; }
h2 { font-size: 1.1rem; margin: 0 0 4px; font-weight: 650; }
section { margin-top: 28px; }
.section-lead { margin: 0 0 12px; color: var(--muted); }
code, pre { font-family: var(--mono); font-size: 0.86em; unicode-bidi: isolate; }
pre { margin: 0; padding: 8px 10px; background: var(--code-bg); border: 1px solid var(--border); border-radius: 6px;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16em; overflow: auto; }
.muted { color: var(--muted); }
.panel { background: var(--panel); border: 1px solid var(--border); border-radius: 10px; padding: 16px 18px; box-shadow: var(--shadow); }

.headline { background: var(--panel); border: 1px solid var(--border); border-radius: 12px; padding: 20px 22px;
  box-shadow: var(--shadow); border-top: 5px solid var(--muted); }
.headline[data-verdict="fail"] { border-top-color: var(--bad); }
.headline[data-verdict="pass"] { border-top-color: var(--good); }
.headline[data-verdict="inconclusive"] { border-top-color: var(--warn); }
.test-path { margin: 0 0 6px; color: var(--muted); font-size: 0.9rem; overflow-wrap: anywhere; }
.title-row { display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
.verdict-reason { margin: 8px 0 0; color: var(--muted); }
.badge { display: inline-block; padding: 1px 10px; border-radius: 999px; font-weight: 700; font-size: 0.8rem;
  text-transform: uppercase; letter-spacing: 0.04em; color: #fff; background: var(--muted); }
.badge-fail { background: var(--bad); } .badge-pass { background: var(--good); } .badge-inconclusive { background: var(--warn); }
@media (prefers-color-scheme: dark) { .badge { color: #111315; } }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 12px; margin-top: 16px; }
.stat { background: var(--panel-2); border-radius: 8px; padding: 10px 14px; }
.stat-label { font-size: 0.78rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); }
.stat-value { font-size: 1.5rem; font-weight: 700; line-height: 1.25; overflow-wrap: anywhere; }
.stat-detail { font-size: 0.86rem; color: var(--muted); overflow-wrap: anywhere; }
.stat-locus { box-shadow: inset 3px 0 0 var(--locus); }

.steps { list-style: none; margin: 0; padding: 0; display: grid; gap: 10px; }
.step-card { background: var(--panel); border: 1px solid var(--border); border-radius: 10px; padding: 12px 16px;
  display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr); gap: 8px 20px; box-shadow: var(--shadow); }
.step-card.is-locus { border: 2px solid var(--locus); background: var(--locus-soft); }
.step-card.is-context { border-style: dashed; }
.step-head { grid-column: 1 / -1; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.step-index { font-family: var(--mono); font-weight: 700; min-width: 2.2em; height: 1.9em; border-radius: 6px; display: inline-grid;
  place-items: center; background: var(--panel-2); border: 1px solid var(--border); padding: 0 6px; }
.is-locus .step-index { background: var(--locus); border-color: var(--locus); color: #fff; }
.step-name { font-weight: 650; overflow-wrap: anywhere; }
.tag { font-size: 0.74rem; padding: 0 8px; border-radius: 999px; border: 1px solid var(--border); color: var(--muted); }
.tag-locus { border-color: var(--locus); color: var(--locus); font-weight: 700; }
.tag-diverged { border-color: var(--warn); color: var(--warn); }
.field-label { font-size: 0.74rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); margin: 2px 0; }
.tool-calls { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; }
.tool-call .tool-name { font-family: var(--mono); font-weight: 650; }
.tool-call pre { max-height: 8em; }
.tool-error { color: var(--bad); }
.step-outcome { grid-column: 1 / -1; }
.input-block { margin-bottom: 10px; } .input-block summary { cursor: pointer; }
.action-details summary { cursor: pointer; } .action-details pre { margin-top: 4px; }
.action-summary { overflow-wrap: anywhere; }
.output-block { margin-top: 10px; }
.no-calls { margin: 0; }

.outcome-bar { position: relative; height: 16px; border-radius: 4px; background: var(--good-soft); overflow: hidden;
  border: 1px solid var(--border); }
.outcome-bar .bar-bad { position: absolute; inset: 0 auto 0 0; background: var(--bad); opacity: 0.85; }
.outcome-bar .bar-ci { position: absolute; top: 6px; height: 3px; background: var(--ci); opacity: 0.75; }
.outcome-bar .bar-ci::before, .outcome-bar .bar-ci::after { content: ""; position: absolute; top: -4px; width: 2px; height: 11px; background: var(--ci); }
.outcome-bar .bar-ci::before { left: 0; } .outcome-bar .bar-ci::after { right: 0; }
.outcome-bar .bar-baseline { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px dashed var(--text); opacity: 0.7; }
.bar-caption { font-size: 0.84rem; color: var(--muted); margin-top: 4px; overflow-wrap: anywhere; }
.bar-caption strong { color: var(--text); }
.direction-rescues { color: var(--good); font-weight: 650; }
.direction-worsens { color: var(--bad); font-weight: 650; }
.direction-undecided { color: var(--warn); font-weight: 650; }
.legend { display: flex; gap: 16px; flex-wrap: wrap; font-size: 0.84rem; color: var(--muted); margin: 0 0 10px; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px; vertical-align: -1px; margin-right: 5px; border: 1px solid var(--border); }
.swatch-bad { background: var(--bad); } .swatch-good { background: var(--good-soft); }
.swatch-baseline { border: 0; border-left: 2px dashed var(--text); border-radius: 0; width: 2px; }

.toggle { display: inline-flex; border: 1px solid var(--border); border-radius: 8px; overflow: hidden; margin-bottom: 10px; }
.toggle button { font: inherit; padding: 5px 14px; border: 0; background: var(--panel); color: var(--text); cursor: pointer; }
.toggle button + button { border-left: 1px solid var(--border); }
.toggle button[aria-selected="true"] { background: var(--accent); color: #fff; }
@media (prefers-color-scheme: dark) { .toggle button[aria-selected="true"] { color: #111315; } }
.toggle button:disabled { cursor: not-allowed; color: var(--muted); opacity: 0.7; }
.toggle button:focus-visible, .copy-button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
figure { margin: 0; }
figcaption { font-size: 0.86rem; color: var(--muted); margin-top: 6px; }
.chart { width: 100%; height: auto; display: block; font-family: var(--sans); }
.chart text { fill: var(--text); font-size: 13px; }
.chart .axis-text, .chart .value-text.is-muted { fill: var(--muted); font-size: 12px; }
.chart .grid { stroke: var(--border); stroke-width: 1; }
.chart .zero { stroke: var(--muted); stroke-width: 1.5; }
.chart .row-locus { fill: var(--locus-soft); stroke: var(--locus); stroke-width: 1.5; }
.chart .whisker { stroke-width: 2.5; }
.chart .tone-rescues { stroke: var(--good); fill: var(--good); }
.chart .tone-worsens { stroke: var(--bad); fill: var(--bad); }
.chart .tone-none { stroke: var(--muted); fill: var(--muted); }
.chart .tone-value { stroke: var(--accent); fill: var(--accent); }
.chart .label-locus { font-weight: 700; }
.chart .value-rescues { fill: var(--good); } .chart .value-worsens { fill: var(--bad); }
.note { margin: 8px 0 0; font-size: 0.86rem; color: var(--muted); }
.warning { color: var(--warn); }

.context-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
.context-parts { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
.context-part.is-culprit pre { border-color: var(--locus); }
mark.culprit { background: var(--locus-soft); color: var(--text); box-shadow: inset 0 -2px 0 var(--locus); padding: 0 1px; border-radius: 2px; }
.context-json { margin-top: 8px; } .context-json summary { cursor: pointer; color: var(--muted); font-size: 0.86rem; }
.context-attribution { margin-top: 16px; }
.context-attribution h3 { font-size: 1rem; margin: 0 0 8px; }
table.context-table tbody th { text-transform: none; letter-spacing: normal; font-size: 0.9rem; background: none; font-weight: 650; overflow-wrap: anywhere; }
table.context-table tr.is-culprit th { box-shadow: inset 3px 0 0 var(--locus); }
.effect-bar { position: relative; height: 16px; min-width: 160px; border-radius: 4px; background: var(--panel-2); border: 1px solid var(--border); }
.effect-bar .effect-zero { position: absolute; left: 50%; top: 0; bottom: 0; border-left: 1.5px solid var(--muted); }
.effect-bar .effect-ci { position: absolute; top: 6px; height: 3px; background: var(--muted); }
.effect-bar .effect-point { position: absolute; top: 3px; width: 9px; height: 9px; margin-left: -4.5px; border-radius: 50%; background: var(--muted); }
.effect-bar.tone-rescues .effect-ci, .effect-bar.tone-rescues .effect-point { background: var(--good); }
.effect-bar.tone-worsens .effect-ci, .effect-bar.tone-worsens .effect-point { background: var(--bad); }
.replay-handle { display: flex; gap: 12px; align-items: flex-start; flex-wrap: wrap; }
.replay-handle pre { flex: 1 1 420px; max-height: none; }
.copy-button { font: inherit; padding: 6px 14px; border-radius: 8px; border: 1px solid var(--accent); background: var(--panel);
  color: var(--accent); cursor: pointer; }
#terminal-message summary { cursor: pointer; font-weight: 650; }
#terminal-message pre { margin-top: 10px; max-height: 32em; }
.method-list { margin: 0; padding-left: 18px; display: grid; gap: 4px; }
.errors-list { margin: 6px 0 0; padding-left: 18px; }
footer { margin-top: 36px; font-size: 0.8rem; color: var(--muted); }

table.index { width: 100%; border-collapse: collapse; background: var(--panel); border: 1px solid var(--border); border-radius: 10px; overflow: hidden; }
table.index th, table.index td { text-align: left; padding: 8px 12px; border-bottom: 1px solid var(--border); vertical-align: top; }
table.index th { font-size: 0.78rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); background: var(--panel-2); }
table.index td.rate { font-variant-numeric: tabular-nums; }
table.dataset-cases th button { font: inherit; color: inherit; text-transform: inherit; letter-spacing: inherit; background: none; border: 0; padding: 0; cursor: pointer; }
table.dataset-cases th[aria-sort="ascending"] button::after { content: " ▲"; }
table.dataset-cases th[aria-sort="descending"] button::after { content: " ▼"; }
table.dataset-cases tr[data-worst] td:first-child { box-shadow: inset 3px 0 0 var(--locus); }
a { color: var(--accent); }
.summary { display: flex; gap: 10px; flex-wrap: wrap; margin: 10px 0 18px; }

@media (max-width: 720px) {
  .step-card, .context-grid { grid-template-columns: minmax(0, 1fr); }
}
`
