// The documented benchmark runs: each bench of bench/ at the arguments the documentation quotes it
// with. `npm run bench` runs these rows; `npm run figures` stores the seeded ones' output under
// bench/figures/, from which `npm run readme` fills the figures of README.md and docs/; the
// benchmarks page lists them (how each one's figures are kept true included). One table, so that
// what runs, what is stored and what the pages say cannot drift apart.

/**
 * How a run's figures are kept true.
 *
 * - `rerun`: seeded and fast; test/bench/figures.test.ts runs it again and compares its output with
 *   the stored one.
 * - `digest`: seeded and slow; `npm run figures` runs it and stores its output with a SHA-256
 *   digest, the docs check fills the pages from that output and re-checks its digest, and
 *   `npm run figures -- --check` re-runs it and compares the digest.
 * - `timed`: wall times, CPU times or memory, which depend on the machine; not stored, and the pages
 *   that quote them give their date and machine instead.
 */
export type FigureCheck = 'rerun' | 'digest' | 'timed'

/** One documented run of a bench. */
export interface DocumentedRun {
  /** Names the run: its stored output is bench/figures/<name>.txt. */
  readonly name: string
  /** The bench's file, relative to bench/. */
  readonly file: string
  /** Default none. Its command-line arguments, as documented. */
  readonly args?: readonly string[]
  /** Default none. Environment variables it is run with. */
  readonly env?: Readonly<Record<string, string>>
  /** How its figures are kept true. */
  readonly check: FigureCheck
  /** What it measures, as the benchmarks page lists it. */
  readonly measures: string
  /**
   * Default none. Parts of a seeded run's output that depend on the machine (wall times), each
   * replaced by `…` in the stored output.
   */
  readonly timed?: readonly RegExp[]
  /** Default false. The output is Markdown (tables), and pages show it as such rather than as a code block. */
  readonly markdown?: boolean
}

/** Every documented run, in the order `npm run bench` runs them. */
export const DOCUMENTED_RUNS: readonly DocumentedRun[] = [
  {
    name: 'gate-rollouts',
    file: 'gate-rollouts.ts',
    check: 'rerun',
    measures: 'the rate gate: rollouts to a decision and error rates, sequential against a fixed n',
  },
  {
    name: 'gate-characteristics',
    file: 'gate-characteristics.ts',
    check: 'rerun',
    measures: 'the rate gate at its defaults, exactly: decisions and mean rollouts by true rate',
    markdown: true,
  },
  {
    name: 'baseline-power',
    file: 'baseline-power.ts',
    check: 'rerun',
    measures: 'stored-baseline gate: false failures, detectable regressions and wrong passes by coupling',
    markdown: true,
  },
  {
    name: 'comparison-power',
    file: 'comparison-power.ts',
    check: 'rerun',
    measures: 'A/B gate decisions',
    markdown: true,
  },
  {
    name: 'score-gate',
    file: 'score-gate.ts',
    check: 'rerun',
    measures: 'score gate decisions',
    markdown: true,
  },
  {
    name: 'datasets',
    file: 'datasets.ts',
    check: 'digest',
    measures:
      'the dataset gate over 500 cases: runs to a decision and error rates, against the one-coin gate and running every case once',
  },
  {
    name: 'judge-correction',
    file: 'judge-correction.ts',
    check: 'digest',
    measures:
      "exact wrong passes, power and rollouts to pass of a judge's rate: uncorrected, corrected, and by the union bound the correction replaced",
    markdown: true,
  },
  {
    name: 'attribution',
    file: 'attribution.ts',
    check: 'digest',
    measures:
      'locus cost and accuracy against the reference design, CRN variance, exact Shapley rollouts; wall times of the reference workloads, warm (part c: timed)',
    timed: [/\d+\.\d s(?=\))/g, /\d+\.\d ms \[[\d.]+, [\d.]+\]/g, /^total .* s$/m],
  },
  {
    name: 'binary-search',
    file: 'binary-search.ts',
    check: 'digest',
    measures: 'binary search on 15-step models',
    timed: [/^total .* s$/m],
  },
  {
    name: 'shapley',
    file: 'shapley.ts',
    check: 'digest',
    measures: 'Shapley allocation and interval candidates',
    timed: [/^total .* s$/m],
  },
  {
    name: 'sequential-bias',
    file: 'sequential-bias.ts',
    args: ['1000'],
    check: 'digest',
    measures: "the sequential effects' lean",
  },
  {
    name: 'context-attribution',
    file: 'context-attribution.ts',
    check: 'digest',
    measures: 'context attribution: cost, accuracy, refinement, and adapter agents',
  },
  {
    name: 'cassette',
    file: 'cassette.ts',
    check: 'digest',
    measures: 'cassette model calls and file size',
    timed: [/^cold vs no cassette: .*$/m, /\d+\.\d\d s/g],
  },
  {
    name: 'cassette-save',
    file: 'cassette-save.ts',
    check: 'timed',
    measures: 'save time and peak memory of a 200 MB cassette, written in chunks against as one string',
  },
  {
    name: 'engine',
    file: 'engine.ts',
    check: 'timed',
    measures: 'rollout engine throughput',
  },
  {
    name: 'memory',
    file: 'memory.ts',
    check: 'timed',
    measures: 'peak memory of one attribution',
  },
  {
    name: 'wall-time',
    file: 'wall-time.ts',
    check: 'timed',
    measures:
      'wall time of a passing and a failing check under heavy-tailed call latency, against the work-conserving limit; lockstep batches and the work-conserving pool side by side',
  },
  {
    name: 'first-call',
    file: 'first-call.ts',
    args: ['--runs', '41'],
    check: 'timed',
    measures: 'wall and CPU times of a first call, in fresh processes',
  },
  {
    name: 'import',
    file: 'import.ts',
    args: ['--runs', '41'],
    check: 'timed',
    measures: "CPU time of importing the package root against its dependencies' alone, in fresh processes",
  },
]

/** The command that runs `run`, as the pages print it. */
export function commandLine(run: DocumentedRun): string {
  const env = Object.entries(run.env ?? {}).map(([name, value]) => `${name}=${value} `)
  return [`${env.join('')}npx tsx bench/${run.file}`, ...(run.args ?? [])].join(' ')
}

/** The documented run named `name`; throws, naming the known runs, when there is none. */
export function documentedRun(name: string): DocumentedRun {
  const run = DOCUMENTED_RUNS.find((candidate) => candidate.name === name)
  if (run === undefined) {
    throw new Error(
      `No documented bench run is named "${name}"; bench/runs.ts has: ${DOCUMENTED_RUNS.map((known) => known.name).join(', ')}.`,
    )
  }
  return run
}
