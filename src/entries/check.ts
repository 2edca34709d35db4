// The root's `check`, not an entry of its own: it is defined at the top layer, where the library is
// entered, because it reads the environment (`process.env`) and the working directory and hands
// them to the pipeline below, which reads neither.

import type { AgentOrScenario } from '../agent/define-agent.js'
import type { CheckResult } from '../check/check.js'
import type { CheckOptions } from '../check/check-options.js'
import type { Claim, KnownOrJson } from '../check/claims.js'
import { captureCallSite, pointAtCallSite } from '../options/call-site.js'

/**
 * Checks a claim about an agent's rate without a test framework: runs the gate, attributes a
 * failure, and returns the verdict as data with the message the matchers print. Use it from
 * `node:test`, another test runner or a CI script; the Vitest matchers are this same pipeline.
 *
 * It never throws for the agent's sake: an agent that throws, hangs or loops is an error outcome
 * in the verdict. Bad options throw an `InvalidOptionError`; a predicate that throws or returns a
 * non-boolean on a gate rollout is a bug in the test and throws (on an attribution replay, the gate's
 * verdict stands and the artifact says the attribution failed).
 *
 * @example
 * <!-- example:examples/node-test/support-gate.test.ts#gate -->
 * ```ts
 * import assert from 'node:assert/strict'
 * import { test } from 'node:test'
 * import { calledTool, check, rarely } from 'vitest-causal-replay'
 * import { carefulTicket, injectedTicket, supportAgent } from '../support-agent/agent.js'
 *
 * const refundWrongly = calledTool('issue_refund')
 * const file = 'examples/node-test/support-gate.test.ts'
 *
 * await test('the careful ticket: rarely refunds (≤ 5%)', async () => {
 *   const result = await check(
 *     supportAgent.on(carefulTicket),
 *     rarely(refundWrongly, { atMost: 0.05, maxRollouts: 1000 }),
 *     { name: 'careful ticket rarely refunds', file },
 *   )
 *   assert.ok(result.passed, result.message)
 * })
 * ```
 * <!-- /example:examples/node-test/support-gate.test.ts#gate -->
 */
export function check<I, O>(
  target: AgentOrScenario<I, O>,
  // Through `KnownOrJson` the claim does not take part in inferring `I` and `O`: they come from the
  // target alone, and type the predicate of `check(agent, rarely((t) => …))`.
  claim: Claim<KnownOrJson<I>, KnownOrJson<O>>,
  options?: CheckOptions,
): Promise<CheckResult>
/**
 * A claim whose predicate reads any JSON trajectory (a `Claim` built apart from its agent, such as
 * `rarely((t: Trajectory) => …)`) fits every agent: every run's input and output are JSON. Without
 * this overload it would not fit an agent whose input is an interface (which has no index signature).
 */
export function check(target: AgentOrScenario, claim: Claim, options?: CheckOptions): Promise<CheckResult>
export async function check(
  target: AgentOrScenario,
  claim: Claim,
  options: CheckOptions = {},
): Promise<CheckResult> {
  const site = captureCallSite(check)
  try {
    // The pipeline is loaded by the first check, not with the package root that every test file
    // imports (see ARCHITECTURE, "What loads when").
    const { checkIn } = await import('../check/check.js')
    return await checkIn(process.env, process.cwd(), target, claim, options)
  } catch (error) {
    throw pointAtCallSite(error, site)
  }
}
