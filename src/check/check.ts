import { join, resolve } from 'node:path'
import { isDatasetScenario, toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import type { ContextAttributionResult } from '../attribute/context-schema.js'
import type { ContrastiveResult } from '../attribute/schema.js'
import { withCassette } from '../cassette/attach.js'
import type { Cassette } from '../cassette/cassette.js'
import { displayPath } from '../files/display-path.js'
import type { Environment } from '../options/environment.js'
import { parseOptions } from '../options/parse-options.js'
import { resolveRateLimitStore } from '../rollout/rate-limit-store.js'
import { buildArtifact, modelCost } from '../verdict/artifact.js'
import { diagnose } from '../verdict/diagnose.js'
import { attributeViolatingCases, withCaseAttributions } from '../verdict/diagnose-cases.js'
import type { GateSubject } from '../verdict/gate.js'
import { predicateLabel } from '../trajectory/predicate-label.js'
import type { Artifact, Verdict } from '../verdict/schema.js'
import { chooseSeed } from '../verdict/seed.js'
import { CheckOptionsSchema, type CheckOptions } from './check-options.js'
import { CLAIMS, DATASET_GATES } from '../verdict/claim-table.js'
import { InvalidOptionError } from '../errors.js'
import { checkClaim, parsedClaimOf, type Claim } from './claims.js'
import type { GateContext } from './gates.js'
import type { ReportFiles } from './report-files.js'

/** What {@link check} returns: the verdict and everything made from it. */
export interface CheckResult {
  verdict: Verdict
  /**
   * The contrastive attribution of the failing rollout (with its `locus`), when one ran; its
   * actions redacted, as the artifact's are, when the cassette redacts.
   */
  attribution: ContrastiveResult | null
  /**
   * Which part of the locus step's context it decided on, when the context attribution ran (a
   * locus whose context has two or more parts, and `attribute.context` not false).
   */
  contextAttribution: ContextAttributionResult | null
  /** Verdict, failing run and attribution, as written to `<reportDir>` and read by the CLI. */
  artifact: Artifact
  /** Whether the claim holds: a pass, or an inconclusive verdict with `onInconclusive: 'pass'`. */
  passed: boolean
  /** The text the matchers print: the claim, the observed rate, the decision, the replay handle, the causal locus. */
  message: string
  /**
   * The files written, as the message shows them: relative to the working directory (absolute
   * outside it), e.g. `.causal-replay/support/support-rarely-refunds-cd15d86c.html`. Null when no
   * `reportDir` was given, or when it could not be written: that is a warning on stderr (once per
   * process and directory), never a different verdict or message.
   */
  report: ReportFiles | null
}

/**
 * The public `check` in the environment `env` and the working directory `cwd`, read by the caller
 * where the library was entered: relative paths (`reportDir`, the cassette, a baseline's `file`)
 * are taken from `cwd`, and messages show paths relative to it. Its errors are not yet pointed at
 * the user's line: the caller does that.
 */
export async function checkIn(
  env: Environment,
  cwd: string,
  target: AgentOrScenario,
  claim: Claim,
  options: CheckOptions,
): Promise<CheckResult> {
  const scenario = toScenario(target, 'check') as Scenario<unknown, unknown>
  checkClaim(claim)
  const parsed = parseOptions('check', CheckOptionsSchema, options)
  const name =
    parsed.name ??
    `${scenario.agent.name} ${claim.kind} ${parsedClaimOf(claim, CLAIMS[claim.kind].builder).label ?? predicateLabel(claimFunction(claim))}`
  // First: a store that cannot be reached fails the check before anything runs. The limiter
  // loads only for a check that sets a limit.
  const rateLimit =
    parsed.rateLimit === undefined
      ? undefined
      : await (
          await import('../rollout/open-rate-limit.js')
        ).holdProcessRateLimit({
          ...parsed.rateLimit,
          store: resolveRateLimitStore(parsed.rateLimit.store, 'check', env),
        })
  try {
    let cassette: Cassette | null = null
    if (parsed.cache !== undefined) {
      // Loaded only for a check that has a cassette.
      const { openCassetteIn } = await import('../cassette/cassette.js')
      cassette = await openCassetteIn(env, resolve(cwd, parsed.cache.file), {
        ...(parsed.cache.mode === undefined ? {} : { mode: parsed.cache.mode }),
        ...(parsed.cache.redact === undefined ? {} : { redact: parsed.cache.redact }),
      })
    }
    const result = await runCheck(scenario, claim, {
      test: { name, file: parsed.file },
      defaults: parsed.modelConcurrency === undefined ? {} : { modelConcurrency: parsed.modelConcurrency },
      signal: parsed.signal,
      rateLimit: rateLimit?.limit,
      report: parsed.reportDir === undefined ? null : { dir: resolve(cwd, parsed.reportDir), assertion: 1 },
      root: cwd,
      cwd,
      env,
      cassette,
    })
    if (cassette !== null) await saveCassette(cassette, cwd)
    return result
  } finally {
    await rateLimit?.close()
  }
}

/** Saves a check's cassette; a file that cannot be written is a warning, never another verdict. */
async function saveCassette(cassette: Cassette, cwd: string): Promise<void> {
  // Misses called live and not written (CI): say so, once per check.
  const stale = cassette.staleness()
  if (stale !== null) {
    const { formatStaleCassetteLine } = await import('../cassette/stale-warning.js')
    process.stderr.write(`${formatStaleCassetteLine(stale, cwd)}\n`)
  }
  try {
    await cassette.save()
  } catch (error) {
    process.stderr.write(
      `vitest-causal-replay: the cassette ${displayPath(cassette.file, cwd)} could not be written (${error instanceof Error ? error.message : String(error)}); the verdict stands, the calls will be made again next run.\n`,
    )
  }
}

/** Where a check runs: what the matchers know about the test, or what `check`'s options say. */
export interface CheckContext extends GateContext {
  /** The test (or named check): seeds the run when the claim sets no seed, and names the artifact. */
  test: { name: string; file: string }
  /** The working directory, read where the library was entered: paths in the message are shown relative to it. */
  cwd: string
  /**
   * Where to write the artifact and the report, if anywhere. `assertion` numbers the claims of one
   * test from 1, so each gets its own files (see `artifactPath`).
   */
  report: { dir: string; assertion: number } | null
  /** Default: the claim builder's name. Who makes the claim, for messages about its options (`toRarely`). */
  caller?: string
}

/** The pipeline behind `check` and every matcher: seed → options → gate → attribution → artifact → message. */
export async function runCheck(
  scenario: Scenario<unknown, unknown>,
  claim: Claim,
  context: CheckContext,
): Promise<CheckResult> {
  // Messages about the options name the matcher, else the claim's builder.
  const caller = context.caller ?? CLAIMS[claim.kind].builder
  const parsed = parsedClaimOf(claim, caller)
  if (isDatasetScenario(scenario) && !DATASET_GATES.includes(CLAIMS[claim.kind].gate)) {
    const over = DATASET_GATES.flatMap((gate) =>
      Object.values(CLAIMS)
        .filter((row) => row.gate === gate)
        .map((row) => row.matcher),
    )
    throw new InvalidOptionError({
      caller,
      option: 'target',
      expected: `one input (agent.on(input)): over a dataset only ${over.join(', ')} decide a claim`,
      received: `agent "${scenario.agent.name}" over dataset "${scenario.dataset.name}"`,
    })
  }
  const chosen = chooseSeed(parsed.seed, context.test, context.env)
  // The claim's options for this run (claim > run defaults > built-in) and its execution context.
  const gate = parsed.forRun(context, chosen.seed)
  const subject: Omit<GateSubject, 'predicate'> = {
    agent: scenario.agent.name,
    label: gate.options.label ?? predicateLabel(claimFunction(claim)),
    seedSource: chosen.source,
  }
  // Every rollout (gate and attribution) goes through the cassette: a warm run reproduces both.
  const target = context.cassette == null ? scenario : withCassette(scenario, context.cassette)
  const gated = await gate.run(target, subject)
  const diagnosis = await diagnose(target, gated, gate.options)
  // A per-case failure attributes each violating case in turn, while the claim's budget lasts.
  const run = withCaseAttributions(
    gated,
    await attributeViolatingCases(target, gated, gate.options, diagnosis),
  )
  // An attribution that failed rides along in the artifact: the verdict it could not explain stands.
  const built = buildArtifact(context.test, run, diagnosis, modelCost(gate.options.execution.budget.spend))
  // What the cassette keeps out of its file stays out of everything made from the artifact too:
  // the JSON, the page (and Vitest's attachment of it), the message, what `check` returns.
  const redactor = context.cassette?.redactor
  const artifact =
    redactor === undefined ? built : (await import('./redact-artifact.js')).redactArtifact(built, redactor)

  const report =
    context.report === null ? null : await writeReport(context.report, context.test, artifact, context.cwd)
  // The text, like the page and the files, is loaded once a claim is decided, not with the package
  // root that every test file imports (see ARCHITECTURE, "What loads when").
  const { formatVerdictMessage } = await import('../text/verdict-message.js')
  let message = formatVerdictMessage(artifact, report === null ? {} : { report: report.html ?? report.json })
  if (report?.htmlError) {
    message += `\n  (the HTML report could not be rendered: ${report.htmlError.message})`
  }
  const { verdict } = artifact
  const passed =
    verdict.kind === 'pass' ||
    (verdict.kind === 'inconclusive' &&
      (verdict.gate === 'sequential' || verdict.gate === 'score') &&
      verdict.onInconclusive === 'pass')
  return {
    verdict,
    attribution: artifact.contrastive,
    contextAttribution: artifact.contextAttribution ?? null,
    artifact,
    passed,
    message,
    report,
  }
}

/**
 * Writes the artifact and its page, and returns their paths as the message shows them (from `cwd`).
 * A directory that cannot be written costs the files, not the verdict: it warns and returns null.
 */
async function writeReport(
  target: { dir: string; assertion: number },
  test: { name: string; file: string },
  artifact: Artifact,
  cwd: string,
): Promise<ReportFiles | null> {
  const { artifactPath, warnReportNotWritten, writeReportFiles } = await import('./report-files.js')
  const path = artifactPath({
    file: test.file,
    test: test.name,
    agent: artifact.verdict.agent,
    assertion: target.assertion,
  })
  try {
    const files = await writeReportFiles(target.dir, path, artifact)
    const shown = (file: string) => displayPath(join(target.dir, file), cwd)
    return { ...files, json: shown(files.json), html: files.html === null ? null : shown(files.html) }
  } catch (error) {
    warnReportNotWritten(target.dir, error)
    return null
  }
}

/** The function a claim asks about each rollout: its predicate, or its scorer. */
function claimFunction(claim: Claim): (trajectory: never) => unknown {
  return 'scorer' in claim ? claim.scorer : claim.predicate
}
