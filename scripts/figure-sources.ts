// Where each seeded figure quoted in the pages' prose is read: the run of bench/runs.ts that prints
// it and a reader of that run's output (a row and cell of a printed table, a pattern, or a figure
// derived from several, such as the range of a column over models). Pages name a figure by its key,
// `<!--fig:<key>-->…<!--/fig-->` (scripts/doc-figures.ts). A reader that no longer finds its figure
// throws: the bench prints otherwise, and the row here must follow it.

/** Where a figure is read: the run that prints it, and how the figure is read from its output. */
export interface FigureSource {
  /** The documented run (bench/runs.ts) whose output holds the figure. */
  readonly run: string
  /** The figure as the pages show it, read from the run's seeded output; throws when it is not there. */
  readonly read: Reader
}

/** A reader of a figure, or of the text a figure is read from, in a run's output. */
export type Reader = (output: string) => string

/**
 * A row of a printed table: after the line that starts with the first of `sections` (indentation
 * aside), then after the next line that starts with the second, and so on, the first line that
 * starts with `label`.
 */
function row(sections: string | readonly string[], label: string | RegExp): Reader {
  return (output) => {
    const lines = output.split('\n').map((line) => line.trim())
    let start = 0
    for (const section of typeof sections === 'string' ? [sections] : sections) {
      start = lines.findIndex((line, index) => index >= start && line.startsWith(section))
      if (start === -1) throw new Error(`no line starts with "${section}"`)
    }
    const labelled = (line: string) => (typeof label === 'string' ? line.startsWith(label) : label.test(line))
    const found = lines.find((line, index) => index > start && labelled(line))
    if (found === undefined) throw new Error(`no row "${String(label)}" after "${String(sections)}"`)
    return found
  }
}

/** A cell of a printed table's row (see {@link row}), the row split where `separator` matches (default: two or more spaces). */
function cell(
  sections: string | readonly string[],
  label: string,
  index: number,
  separator = /\s{2,}/,
): Reader {
  return (output) => {
    const found = row(sections, label)(output).split(separator)[index]
    if (found === undefined) throw new Error(`the row "${label}" has no cell ${index}`)
    return found
  }
}

/** What `pattern`'s groups match in the text `read` gives (default: the whole output), joined or shown by `format`. */
function matched(
  pattern: RegExp,
  format: (groups: string[]) => string = (groups) => groups.join(''),
  read: Reader = (output) => output,
): Reader {
  return (output) => {
    const text = read(output)
    const match = pattern.exec(text)
    if (match === null) throw new Error(`no match for ${pattern}`)
    return format(match.slice(1) as string[])
  }
}

/** The first number (with its sign, %, ×) in a text, or of a reader's text. */
function firstNumber(read: Reader, format: (number: string) => string = (n) => n): Reader {
  return (output) => {
    const text = read(output)
    const found = /[-+]?\d[\d,]*(?:\.\d+)?%?/.exec(text)
    if (found === null) throw new Error(`no number in "${text}"`)
    return format(found[0])
  }
}

/** A printed number as the pages write it: a minus sign for a hyphen, no plus. */
const signed = (text: string) => text.replace(/\+/g, '').replace(/-/g, '−')

/** A number without a trailing `.0`: 512.0 → 512. */
const whole = (text: string) => text.replace(/\.0(%?)$/, '$1')

/** The figures read by `reads`, ordered by size (sign aside), each as printed. */
function bySize(reads: readonly Reader[], output: string): string[] {
  const size = (value: string) => Math.abs(Number.parseFloat(value.replace(/[^\d.-]/g, '')))
  return reads.map((read) => read(output).replace(/^[-+]/, '')).sort((a, b) => size(a) - size(b))
}

/** The smallest and largest of some figures, `low–high`, each as printed. */
function spread(reads: readonly Reader[]): Reader {
  return (output) => {
    const sorted = bySize(reads, output)
    return `${sorted[0]}–${sorted[sorted.length - 1]}`
  }
}

/** The largest of some figures, as printed. */
function largest(reads: readonly Reader[]): Reader {
  return (output) => bySize(reads, output).at(-1) as string
}

/** The rollouts per attribution at K = 32 of a design on a model of bench/attribution.ts, part (b); or what `pattern` picks there. */
const LOCUS = (model: string, design: string, pattern = /rollouts ([\d.]+)/) =>
  matched(pattern, undefined, row(['(b) rollouts', model, design], 'K=32'))
/** The reference design's rollouts over the library's, with its interval, on a model of part (b). */
const RATIO = (model: string) =>
  matched(
    /: ([\d.]+× \[[\d.]+, [\d.]+\])/,
    undefined,
    row(['(b) rollouts', model], 'rollouts, reference design at K = 32'),
  )
/** A cell of an effect's row of a model in bench/sequential-bias.ts. */
const SEQUENTIAL = (model: string, effect: string, column: number) => cell(`${model} (`, effect, column)
/** A cell of a design's row of a model in bench/binary-search.ts. */
const BINARY = (model: string, design: string, column: number) => cell(model, design, column)
/** The five judge models of bench/judge-correction.ts, by the start of their row. */
const JUDGE_MODELS = ['rarely ≤ 20%', 'usually ≥ 80%', 'rarely ≤ 10%', 'usually ≥ 90%', 'rarely ≤ 30%']
/** A cell of a judge model's row of a table of bench/judge-correction.ts (0: the model). */
const JUDGE = (section: string, model: string, column: number) => cell(section, `| ${model}`, column, / \| /)

/** The models of bench/shapley.ts, part (b): the two of the reference, then five skewed ones. */
const ALLOCATION_MODELS = ['pivotal SCM', 'AND SCM', 'AND-3', 'OR-4', 'majority-5', 'chain-6', '(a ∧ b) ∨ c']
/** The skewed models of bench/shapley.ts, part (a). */
const INTERVAL_MODELS = ['AND-3', 'OR-4', 'majority-5', 'chain-6', '(a ∧ b) ∨ c']
/** The rows of an allocation of part (b): the adaptive run, the worst-case fixed one, the one sized in hindsight. */
const ALLOCATIONS = {
  adaptive: 'adaptive (default):',
  worstCase: /^fixed +\d+\/coalition \(worst case\)/,
  hindsight: /^fixed +\d+\/coalition \(±0\.05 in 95%\)/,
} as const
/** What `pattern` picks in an allocation's row of a model in bench/shapley.ts, part (b). */
const ALLOCATION = (model: string, allocation: keyof typeof ALLOCATIONS, pattern: RegExp) =>
  matched(pattern, undefined, row(['(b) exact Shapley', model], ALLOCATIONS[allocation]))
/** What `pattern` picks in a model's row of bench/shapley.ts, part (c). */
const BEST = (model: string, pattern: RegExp) => matched(pattern, undefined, row('(c) the fewest', model))
/** What `pattern` picks in an interval's row of a model in bench/shapley.ts, part (a). */
const INTERVAL = (model: string, interval: string, pattern: RegExp) =>
  matched(pattern, undefined, row(['(a) permutation Shapley', model], interval))
/** An interval's lowest coverage over a model's steps, and its mean half-width, in part (a). */
const LOWEST = /lowest ([\d.]+%)/
const HALF_WIDTH = /half-width ([\d.]+|∞)/

/** An interval's lowest coverage over the skewed models of part (a), with the model's name when `named`. */
function lowestCoverage(interval: string, named = false): Reader {
  return (output) => {
    const coverages = INTERVAL_MODELS.map((model) =>
      Number.parseFloat(INTERVAL(model, interval, LOWEST)(output)),
    )
    const lowest = Math.min(...coverages)
    const model = INTERVAL_MODELS[coverages.indexOf(lowest)] as string
    return `${lowest.toFixed(1)}%${named ? ` (${model})` : ''}`
  }
}

/**
 * The range over the skewed models of part (a) of one interval's half-width over another's, as
 * `low–high` with `digits` decimals, or as the percentage `change` of it (`wider`: ratio − 1,
 * `narrower`: 1 − ratio). Models where either is infinite are left out.
 */
function widthRatio(interval: string, against: string, digits = 2, change?: 'wider' | 'narrower'): Reader {
  return (output) => {
    const ratios = INTERVAL_MODELS.map(
      (model) =>
        Number(INTERVAL(model, interval, HALF_WIDTH)(output)) /
        Number(INTERVAL(model, against, HALF_WIDTH)(output)),
    ).filter(Number.isFinite)
    const shown = ratios.map((ratio) =>
      change === undefined ? ratio : 100 * (change === 'wider' ? ratio - 1 : 1 - ratio),
    )
    const [low, high] = [Math.min(...shown), Math.max(...shown)].map((value) => value.toFixed(digits))
    return change === undefined ? `${low}–${high}` : `${low}–${high}%`
  }
}

/** The adapter agents of bench/context-attribution.ts, part (d), by the start of their heading. */
const ADAPTER_AGENTS = {
  'ai-sdk': '(d) AI SDK travel agent, planted sentence in a JSON tool result field, P(bad | planted) = ',
  langgraph: '(d) LangGraph account agent, planted sentence in the user message, P(bad | planted) = ',
} as const
/** The caps of part (d): the default, and the earlier one (the contrastive spend or 128). */
const ADAPTER_CAPS = { default: 'default now', earlier: 'cap max' } as const
/** What `pattern` picks in a cap's row for an adapter agent at a P(bad | planted) in part (d). */
const ADAPTER = (
  agent: keyof typeof ADAPTER_AGENTS,
  planted: '0.7' | '0.45',
  cap: keyof typeof ADAPTER_CAPS,
  pattern: RegExp,
) => matched(pattern, undefined, row(`${ADAPTER_AGENTS[agent]}${planted}:`, ADAPTER_CAPS[cap]))
/** How often part (d) named the planted sentence exactly. */
const NAMED = /planted sentence exactly (\d+\/\d+)/

/** The figures quoted in prose, by key (`<run>.<what>`). */
export const FIGURES: Readonly<Record<string, FigureSource>> = {
  // The lean of a sequential effect: the pivotal and AND models' effects, sequential and fixed K.
  'sequential-bias.lean': {
    run: 'sequential-bias',
    read: spread([
      SEQUENTIAL('pivotal', 'τ0', 3),
      SEQUENTIAL('pivotal', 'τ1', 3),
      SEQUENTIAL('AND', 'τ0', 3),
      SEQUENTIAL('AND', 'τ1', 3),
    ]),
  },
  'sequential-bias.pivotal-truth': {
    run: 'sequential-bias',
    read: firstNumber(SEQUENTIAL('pivotal', 'τ0', 1), signed),
  },
  'sequential-bias.pivotal-sequential': {
    run: 'sequential-bias',
    read: (o) => signed(SEQUENTIAL('pivotal', 'τ0', 2)(o)),
  },
  'sequential-bias.pivotal-fixed': {
    run: 'sequential-bias',
    read: (o) => signed(SEQUENTIAL('pivotal', 'τ0', 4)(o)),
  },
  'sequential-bias.and-truth': {
    run: 'sequential-bias',
    read: firstNumber(SEQUENTIAL('AND', 'Σ|τ|', 1), signed),
  },
  'sequential-bias.and-sequential': {
    run: 'sequential-bias',
    read: (o) => signed(SEQUENTIAL('AND', 'Σ|τ|', 2)(o)),
  },
  'sequential-bias.and-fixed': {
    run: 'sequential-bias',
    read: (o) => signed(SEQUENTIAL('AND', 'Σ|τ|', 4)(o)),
  },

  // Binary search on 15-step models whose causal step goes bad with probability up to 0.5.
  'binary-search.accuracy': {
    run: 'binary-search',
    read: firstNumber(BINARY('P(pivot bad) uniform in [0, 0.5]', 'binary search', 1)),
  },
  'binary-search.linear-accuracy': {
    run: 'binary-search',
    read: firstNumber(BINARY('P(pivot bad) uniform in [0, 0.5]', 'linear search', 1)),
  },
  'binary-search.rollouts': {
    run: 'binary-search',
    read: firstNumber(BINARY('P(pivot bad) uniform in [0, 0.5]', 'binary search', 4)),
  },
  'binary-search.max-rollouts': {
    run: 'binary-search',
    read: matched(/uniform in \[0, 0\.5\][^\n]*\n {2}binary search[^\n]*max (\d+)/),
  },
  'binary-search.linear-rollouts': {
    run: 'binary-search',
    read: firstNumber(BINARY('P(pivot bad) uniform in [0, 0.5]', 'linear search', 4), whole),
  },
  'binary-search.false-discoveries': {
    run: 'binary-search',
    read: spread(
      ['P(pivot bad) uniform in [0, 0.4]', 'P(pivot bad) uniform in [0, 0.5]', 'null model'].map((model) =>
        firstNumber(BINARY(model, 'binary search', 2)),
      ),
    ),
  },
  'binary-search.linear-false-discoveries': {
    run: 'binary-search',
    read: spread(
      ['P(pivot bad) uniform in [0, 0.4]', 'P(pivot bad) uniform in [0, 0.5]', 'null model'].map((model) =>
        firstNumber(BINARY(model, 'linear search', 2)),
      ),
    ),
  },

  // A judge's wrong passes at the bound, uncorrected and corrected, over five judge models.
  'judge-correction.weak-judge': {
    run: 'judge-correction',
    read: JUDGE('wrong passes', 'rarely ≤ 10%, Se 0.6', 1),
  },
  'judge-correction.uncorrected': {
    run: 'judge-correction',
    read: spread(JUDGE_MODELS.map((model) => JUDGE('wrong passes', model, 1))),
  },
  'judge-correction.corrected-max': {
    run: 'judge-correction',
    read: largest(JUDGE_MODELS.map((model) => JUDGE('wrong passes', model, 2))),
  },

  // Exact Shapley at ±0.05 (part b): the adaptive allocation, the worst-case one, one sized in hindsight.
  'shapley.pivotal-adaptive': {
    run: 'shapley',
    read: ALLOCATION('pivotal SCM', 'adaptive', /(\d+) rollouts/),
  },
  'shapley.and-adaptive': { run: 'shapley', read: ALLOCATION('AND SCM', 'adaptive', /(\d+) rollouts/) },
  'shapley.adaptive-coverage': {
    run: 'shapley',
    read: spread(
      ['pivotal SCM', 'AND SCM'].map((model) => ALLOCATION(model, 'adaptive', /coverage ([\d.]+%)/)),
    ),
  },
  'shapley.worst-case-rollouts': {
    run: 'shapley',
    read: ALLOCATION('pivotal SCM', 'worstCase', /(\d+) rollouts/),
  },
  'shapley.worst-case-per-coalition': {
    run: 'shapley',
    read: ALLOCATION('pivotal SCM', 'worstCase', /fixed +(\d+)\/coalition/),
  },
  'shapley.worst-case-width': {
    run: 'shapley',
    read: spread(['pivotal SCM', 'AND SCM'].map((model) => ALLOCATION(model, 'worstCase', /±([\d.]+)/))),
  },
  'shapley.worst-case-width-all': {
    run: 'shapley',
    read: spread(ALLOCATION_MODELS.map((model) => ALLOCATION(model, 'worstCase', /±([\d.]+)/))),
  },
  'shapley.worst-case-ratio': {
    run: 'shapley',
    read: spread(
      ['pivotal SCM', 'AND SCM'].map((model) => ALLOCATION(model, 'worstCase', /([\d.]+×) the adaptive/)),
    ),
  },
  'shapley.worst-case-ratio-all': {
    run: 'shapley',
    read: spread(ALLOCATION_MODELS.map((model) => ALLOCATION(model, 'worstCase', /([\d.]+×) the adaptive/))),
  },
  'shapley.hindsight-pivotal': {
    run: 'shapley',
    read: ALLOCATION('pivotal SCM', 'hindsight', /(\d+) rollouts/),
  },
  'shapley.hindsight-and': { run: 'shapley', read: ALLOCATION('AND SCM', 'hindsight', /(\d+) rollouts/) },
  'shapley.hindsight-ratio-pivotal': {
    run: 'shapley',
    read: ALLOCATION('pivotal SCM', 'hindsight', /([\d.]+×) the adaptive/),
  },
  'shapley.hindsight-ratio-and': {
    run: 'shapley',
    read: ALLOCATION('AND SCM', 'hindsight', /([\d.]+×) the adaptive/),
  },
  'shapley.hindsight-ratio': {
    run: 'shapley',
    read: spread(
      ['pivotal SCM', 'AND SCM'].map((model) => ALLOCATION(model, 'hindsight', /([\d.]+×) the adaptive/)),
    ),
  },
  'shapley.hindsight-ratio-others': {
    run: 'shapley',
    read: spread(INTERVAL_MODELS.map((model) => ALLOCATION(model, 'hindsight', /([\d.]+×) the adaptive/))),
  },
  'shapley.hindsight-ratio-all': {
    run: 'shapley',
    read: spread(ALLOCATION_MODELS.map((model) => ALLOCATION(model, 'hindsight', /([\d.]+×) the adaptive/))),
  },
  // The best allocation knowing the coalition values (part c), against equal rollouts.
  'shapley.best-pivotal': { run: 'shapley', read: BEST('pivotal SCM', /best (\d+) rollouts/) },
  'shapley.best-and': { run: 'shapley', read: BEST('AND SCM', /best (\d+) rollouts/) },
  'shapley.uniform-pivotal': { run: 'shapley', read: BEST('pivotal SCM', /uniform (\d+)/) },
  'shapley.uniform-and': { run: 'shapley', read: BEST('AND SCM', /uniform (\d+)/) },
  'shapley.best-ratio-pivotal': { run: 'shapley', read: BEST('pivotal SCM', /at most ([\d.]+×)/) },
  'shapley.best-ratio-and': { run: 'shapley', read: BEST('AND SCM', /at most ([\d.]+×)/) },
  // Permutation Shapley's intervals on five skewed models (part a).
  'shapley.plain-or': { run: 'shapley', read: INTERVAL('OR-4', 'plain t', LOWEST) },
  'shapley.plain-majority': { run: 'shapley', read: INTERVAL('majority-5', 'plain t', LOWEST) },
  'shapley.plain-chain': { run: 'shapley', read: INTERVAL('chain-6', 'plain t', LOWEST) },
  'shapley.or-value': {
    run: 'shapley',
    read: matched(/OR-4 \(q = 0\.2\): values [\d.]+, (-[\d.]+)/, ([value]) => signed(value as string)),
  },
  'shapley.majority-value': {
    run: 'shapley',
    read: matched(/majority-5 \(q = 0\.4\): values (?:[\d.]+, ){3}(-[\d.]+)/, ([value]) =>
      signed(value as string),
    ),
  },
  'shapley.tango-majority': {
    run: 'shapley',
    read: INTERVAL('majority-5', 'efficiency sum', /Tango over rollout pairs \(before\) ([\d.]+%)/),
  },
  'shapley.quarter-coverage': {
    run: 'shapley',
    read: spread(INTERVAL_MODELS.map((model) => INTERVAL(model, 't + ¼', LOWEST))),
  },
  'shapley.quarter-wider-than-plain': { run: 'shapley', read: widthRatio('t + ¼', 'plain t', 0, 'wider') },
  'shapley.half-wider-than-quarter': { run: 'shapley', read: widthRatio('t + ½', 't + ¼', 0, 'wider') },
  'shapley.quarter-narrower-than-half': { run: 'shapley', read: widthRatio('t + ¼', 't + ½', 0, 'narrower') },
  'shapley.lowest-plain': { run: 'shapley', read: lowestCoverage('plain t') },
  'shapley.lowest-quarter': { run: 'shapley', read: lowestCoverage('t + ¼') },
  'shapley.lowest-half': { run: 'shapley', read: lowestCoverage('t + ½') },
  'shapley.lowest-floor': { run: 'shapley', read: lowestCoverage('t, variance floor', true) },
  'shapley.lowest-bootstrap': { run: 'shapley', read: lowestCoverage('bootstrap-t', true) },
  'shapley.lowest-bernstein': { run: 'shapley', read: lowestCoverage('empirical Bernstein') },
  'shapley.width-quarter': { run: 'shapley', read: widthRatio('t + ¼', 'plain t') },
  'shapley.width-half': { run: 'shapley', read: widthRatio('t + ½', 'plain t') },
  'shapley.width-floor': { run: 'shapley', read: widthRatio('t, variance floor', 'plain t') },
  'shapley.width-bootstrap-and': {
    run: 'shapley',
    read: (output) =>
      (
        Number(INTERVAL('AND-3', 'bootstrap-t', HALF_WIDTH)(output)) /
        Number(INTERVAL('AND-3', 'plain t', HALF_WIDTH)(output))
      ).toFixed(2),
  },
  'shapley.width-bernstein': { run: 'shapley', read: widthRatio('empirical Bernstein', 'plain t', 1) },

  // The A/B gate on an unchanged agent (bad rate 20% → 20%): pairs under CRN, undecided runs without.
  'comparison-power.crn-pairs-unchanged': {
    run: 'comparison-power',
    read: matched(/(\d+) pairs/, undefined, cell('|---', '| 20% → 20% ', 1, / \| /)),
  },
  'comparison-power.independent-undecided-unchanged': {
    run: 'comparison-power',
    read: matched(/ \/ ([\d.]+%),/, undefined, cell('|---', '| 20% → 20% ', 2, / \| /)),
  },

  // Context attribution on the adapter agents (part d): the planted sentence named, and the cost.
  'context-attribution.ai-sdk-strong': {
    run: 'context-attribution',
    read: ADAPTER('ai-sdk', '0.7', 'default', NAMED),
  },
  'context-attribution.langgraph-strong': {
    run: 'context-attribution',
    read: ADAPTER('langgraph', '0.7', 'default', NAMED),
  },
  'context-attribution.ai-sdk-weak': {
    run: 'context-attribution',
    read: ADAPTER('ai-sdk', '0.45', 'default', NAMED),
  },
  'context-attribution.langgraph-weak': {
    run: 'context-attribution',
    read: ADAPTER('langgraph', '0.45', 'default', NAMED),
  },
  'context-attribution.ai-sdk-weak-earlier': {
    run: 'context-attribution',
    read: ADAPTER('ai-sdk', '0.45', 'earlier', NAMED),
  },
  'context-attribution.langgraph-weak-earlier': {
    run: 'context-attribution',
    read: ADAPTER('langgraph', '0.45', 'earlier', NAMED),
  },
  'context-attribution.rollouts': {
    run: 'context-attribution',
    read: spread(
      (['ai-sdk', 'langgraph'] as const).flatMap((agent) =>
        (['0.7', '0.45'] as const).map((planted) =>
          ADAPTER(agent, planted, 'default', /context rollouts mean ([\d.]+)/),
        ),
      ),
    ),
  },

  // The A/B gate's mean pairs under CRN where the bad rate changed and it decided in 99% of runs or more.
  'comparison-power.crn-pairs-clear-change': {
    run: 'comparison-power',
    read: (output) => {
      const pairs = output
        .split('\n')
        .map((line) =>
          /^\| ([\d.]+)% → ([\d.]+)% \| ([\d.]+)% \/ ([\d.]+)% \/ [\d.]+%, (\d+) pairs/.exec(line),
        )
        .filter((match) => match !== null)
        .filter(
          ([, baseline, candidate, pass, fail]) =>
            baseline !== candidate && Math.max(Number(pass), Number(fail)) >= 99,
        )
        .map((match) => Number(match[5]))
      if (pairs.length === 0) throw new Error('no row of a clear change')
      return `${Math.min(...pairs)}–${Math.max(...pairs)}`
    },
  },

  // The cassette's size on a four-step agent, in the first layout and now.
  'cassette.v1-size': { run: 'cassette', read: matched(/^v1: .* (\d+\.\d\d MB)$/m) },
  'cassette.v2-size': { run: 'cassette', read: matched(/^v2: .* (\d+\.\d\d MB) /m) },

  // The locus against the reference design (fixed K = 32 per step, independent arms), and CRN.
  'attribution.pivotal-reference': { run: 'attribution', read: LOCUS('pivotal SCM', 'reference') },
  'attribution.pivotal-ours': { run: 'attribution', read: LOCUS('pivotal SCM', 'contrastive defaults') },
  'attribution.pivotal-ratio': { run: 'attribution', read: RATIO('pivotal SCM') },
  'attribution.generated-reference': { run: 'attribution', read: LOCUS('generated SCMs', 'reference') },
  'attribution.generated-reference-accuracy': {
    run: 'attribution',
    read: LOCUS('generated SCMs', 'reference', /accuracy ([\d.]+%)/),
  },
  'attribution.generated-ours': { run: 'attribution', read: LOCUS('generated SCMs', 'contrastive defaults') },
  'attribution.generated-ours-accuracy': {
    run: 'attribution',
    read: LOCUS('generated SCMs', 'contrastive defaults', /accuracy ([\d.]+%)/),
  },
  'attribution.generated-ratio': { run: 'attribution', read: RATIO('generated SCMs') },
  'attribution.crn-ratio': {
    run: 'attribution',
    read: matched(/ratio independent \/ CRN = ([\d.]+ \[[\d.]+, [\d.]+\])/),
  },
  // The reference implementation's own workloads, run by this library.
  'attribution.fixed-k80-rollouts': {
    run: 'attribution',
    read: matched(/K = 80 fixed .* (\d+) rollouts$/m),
  },
  'attribution.sequential-k80-rollouts': {
    run: 'attribution',
    read: matched(/K ≤ 80 sequential .* (\d+) rollouts$/m),
  },
  'attribution.shapley-rollouts': {
    run: 'attribution',
    read: matched(/80 × 12 antithetic, AND SCM: .* (\d+) rollouts;/),
  },
  'attribution.shapley-values': {
    run: 'attribution',
    read: matched(/80 × 12 antithetic, AND SCM: .* values \(([\d.]+, [\d.]+),/),
  },
  'attribution.shapley-truth': {
    run: 'attribution',
    read: matched(/80 × 12 antithetic, AND SCM: .* truth \(([\d.]+),/),
  },

  // The rate gate's exact mean rollouts to a decision.
  'gate-rollouts.pass-at-0': { run: 'gate-rollouts', read: firstNumber(cell('true rate', '0%', 3), whole) },
  'gate-rollouts.fail-at-30': { run: 'gate-rollouts', read: firstNumber(cell('true rate', '30%', 3), whole) },

  // The rate gate: clean rollouts to pass, the fixed-n minimum, and the difference.
  'gate-rollouts.clean-to-pass': { run: 'gate-rollouts', read: matched(/^clean rollouts to pass: (\d+)/m) },
  'gate-rollouts.fixed-minimum': { run: 'gate-rollouts', read: matched(/fixed-n minimum: (\d+)/) },
  'gate-rollouts.price': {
    run: 'gate-rollouts',
    read: matched(/clean rollouts to pass: (\d+) \(fixed-n minimum: (\d+)/, ([clean, fixed]) =>
      String(Number(clean) - Number(fixed)),
    ),
  },
}
