// The seeded figures of the pages, filled from the benches' stored outputs (scripts/bench-output.ts)
// by the machinery that fills their code blocks (scripts/readme-output.ts):
//
// - a block `<!-- bench:<run> -->` … `<!-- /bench:<run> -->` holds a run's whole seeded output,
//   under the command that prints it (a Markdown output as Markdown, any other in a code block);
// - a figure in prose is written `<!--fig:<key>-->97.6%<!--/fig-->`: the text between the markers
//   is the figure `<key>` of FIGURES (scripts/figure-sources.ts), read from its run's output, and the paragraph around it
//   (or the one before, which introduces a table) must name that run's command in backticks, so a
//   reader sees what printed it.
//
// `npm run readme` rewrites both; test/readme.test.ts fails when a page differs.
import { resolve } from 'node:path'
import {
  DOCUMENTED_RUNS,
  commandLine,
  documentedRun,
  type DocumentedRun,
  type FigureCheck,
} from '../bench/runs.js'
import { storedOutput } from './bench-output.js'
import { FIGURES, type FigureSource } from './figure-sources.js'
import { ROOT } from './public-entries.js'

/** The inline figure markers of a page: `<!--fig:<key>-->` figure `<!--/fig-->`. */
const FIGURE_MARKER = /<!--fig:([\w.-]+)-->(.*?)<!--\/fig-->/g

/** The keys of the figures a page quotes, in order. */
export function figureKeys(page: string): string[] {
  return [...page.matchAll(FIGURE_MARKER)].map((match) => match[1] as string)
}

/** The figure `key` as its run's output gives it; throws when the key is unknown or the output has no such figure. */
export function figureValue(key: string, output: string): string {
  const source = figureSource(key)
  try {
    return source.read(output)
  } catch (error) {
    throw new Error(
      `The figure "${key}" is not in the output of \`${commandLine(documentedRun(source.run))}\` (${(error as Error).message}): ` +
        'the bench prints it otherwise now; change how FIGURES in scripts/figure-sources.ts reads it.',
    )
  }
}

/** The source of the figure `key`; throws when FIGURES has none. */
function figureSource(key: string): FigureSource {
  const source = FIGURES[key]
  if (source === undefined)
    throw new Error(`No figure is named "${key}": scripts/figure-sources.ts lists them in FIGURES.`)
  return source
}

/** The stored outputs of the runs named `runs` and of the runs the figures `figureKeys` are read from, by run name. */
export async function outputsFor(
  runs: readonly string[],
  figureKeys: readonly string[],
): Promise<Map<string, string>> {
  const names = new Set([...runs, ...figureKeys.map((key) => figureSource(key).run)])
  const outputs = new Map<string, string>()
  for (const name of names) outputs.set(name, await storedOutput(documentedRun(name)))
  return outputs
}

/**
 * `page` with every inline figure filled from `outputs` (by run name). Throws, naming the page, when
 * neither a figure's paragraph nor the one before names its run's command.
 */
export function fillFigures(page: string, outputs: ReadonlyMap<string, string>, pageName: string): string {
  const paragraphs = page.split(/\n[ \t]*\n/)
  for (const [index, paragraph] of paragraphs.entries()) {
    // A table's figures are named by the sentence that introduces it, the paragraph before.
    const beside = `${paragraphs[index - 1] ?? ''}\n${paragraph}`
    for (const key of figureKeys(paragraph)) {
      const command = commandLine(documentedRun(figureSource(key).run))
      if (!beside.includes(`\`${command}\``)) {
        throw new Error(
          `${pageName}: the figure "${key}" needs its command \`${command}\` in its paragraph or the one before.`,
        )
      }
    }
  }
  return page.replace(FIGURE_MARKER, (_whole, key: string) => {
    const output = outputs.get(figureSource(key).run)
    if (output === undefined) throw new Error(`${pageName}: no output was loaded for the figure "${key}".`)
    return `<!--fig:${key}-->${figureValue(key, output)}<!--/fig-->`
  })
}

/**
 * The figures of `page` that differ from what their runs printed, as `key: shown → printed`; empty
 * when the page is up to date.
 */
export function staleFigures(page: string, outputs: ReadonlyMap<string, string>, pageName: string): string[] {
  const shown = [...page.matchAll(FIGURE_MARKER)].map((match) => match[2] as string)
  const printed = [...fillFigures(page, outputs, pageName).matchAll(FIGURE_MARKER)].map(
    (match) => match[2] as string,
  )
  return figureKeys(page).flatMap((key, index) =>
    shown[index] === printed[index] ? [] : [`${key}: ${shown[index]} → ${printed[index]}`],
  )
}

/**
 * The block of a run's whole seeded output: a Markdown output under the command that prints it
 * (each table set off by a blank line), any other in a code block whose first line is the command.
 */
export function benchBlock(run: DocumentedRun, output: string): string {
  const lines = output.replace(/\n+$/, '').split('\n')
  if (run.markdown !== true) return ['```', `$ ${commandLine(run)}`, ...lines, '```', ''].join('\n')
  const spaced = lines.flatMap((line, index) => {
    const previous = lines[index - 1]
    const opensTable =
      line.startsWith('|') && previous !== undefined && previous !== '' && !previous.startsWith('|')
    return opensTable ? ['', line] : [line]
  })
  return [`\`${commandLine(run)}\` prints:`, '', ...spaced, ''].join('\n')
}

/** The pages whose figures are filled beyond the site's: the maintainers' architecture document. */
export const FIGURE_ONLY_PAGES: readonly string[] = [resolve(ROOT, 'docs', 'ARCHITECTURE.md')]

/** How each kind of documented run keeps its figures true, as the benchmarks page says it. */
const FIGURE_CHECKS: Record<FigureCheck, string> = {
  rerun: 're-run by the docs check',
  digest: 'stored with its digest by `npm run figures`',
  timed: 'timed: depends on the machine, not checked',
}

/** What `npm run bench` runs, one documented run a row, and how each one's figures are kept true. */
export function benchRunsTable(): string {
  const rows = DOCUMENTED_RUNS.map((run) => {
    const timedParts = run.check !== 'timed' && run.timed !== undefined ? '; its times are not checked' : ''
    return `| \`${commandLine(run)}\` | ${run.measures} | ${FIGURE_CHECKS[run.check]}${timedParts} |`
  })
  return ['| command | measures | figures |', '|---|---|---|', ...rows, ''].join('\n')
}
