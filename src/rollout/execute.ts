import type { AgentContext, Policy, Scenario, StepOptions } from '../agent/types.js'
import {
  BudgetExceededError,
  MaxStepsExceededError,
  ReplayDivergenceError,
  RolloutAbortedError,
  RolloutTimeoutError,
} from '../errors.js'
import { assertJson, contextDigest, type Json } from '../json.js'
import { providerSeed, stepStream } from '../random/streams.js'
import type { Plan } from '../replay/plan.js'
import {
  TRAJECTORY_SCHEMA,
  type Observation,
  type RolloutErrorKind,
  type Step,
  type StepSource,
  type Trajectory,
} from '../trajectory/schema.js'
import type { Budget } from './budget.js'

/** What a single rollout needs besides the scenario. */
export interface RolloutSettings {
  seed: number
  rollout: number
  plan: Plan
  timeoutMs: number
  maxSteps: number
  budget: Budget
  signal: AbortSignal | undefined
  /** `count`: divergences are only counted; `error`: a divergence ends the rollout as an error. */
  onDivergence: 'count' | 'error'
}

/** A finished rollout. `stoppedByBudget` rollouts are not outcomes and are left out of every rate. */
export interface RolloutResult {
  trajectory: Trajectory
  stoppedByBudget: boolean
}

/**
 * Runs one rollout of `scenario` under `settings.plan`. Never throws for the agent's sake: an agent
 * that throws, times out, loops or is aborted gives a trajectory with `error` set.
 */
export async function executeRollout(scenario: Scenario<unknown, unknown>, settings: RolloutSettings): Promise<RolloutResult> {
  const controller = new AbortController()
  const deadline = performance.now() + settings.timeoutMs
  const recorder = new TrajectoryRecorder(scenario, settings, controller.signal, deadline)

  const onOuterAbort = () => controller.abort(new RolloutAbortedError('The rollout was cancelled.'))
  if (settings.signal?.aborted) onOuterAbort()
  settings.signal?.addEventListener('abort', onOuterAbort, { once: true })
  let timer: NodeJS.Timeout | undefined
  // The agent may never look at its signal (a hang on a promise that never settles), so the race
  // below ends the rollout on abort whatever the agent does.
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(controller.signal.reason as Error)
    if (controller.signal.aborted) fail()
    else controller.signal.addEventListener('abort', fail, { once: true })
  })
  aborted.catch(() => {})
  if (Number.isFinite(settings.timeoutMs)) {
    timer = setTimeout(
      () => controller.abort(new RolloutTimeoutError(`The rollout exceeded timeoutMs (${settings.timeoutMs} ms).`)),
      settings.timeoutMs,
    )
  }

  try {
    const output = await Promise.race([Promise.resolve().then(() => scenario.agent.run(scenario.input, recorder.context)), aborted])
    if (controller.signal.aborted) throw controller.signal.reason
    if (output !== undefined) {
      assertJson(output, `The output of agent "${scenario.agent.name}"`)
      recorder.output = output
    }
  } catch (error) {
    if (error instanceof BudgetExceededError) return { trajectory: recorder.finish(), stoppedByBudget: true }
    recorder.fail(error)
  } finally {
    clearTimeout(timer)
    settings.signal?.removeEventListener('abort', onOuterAbort)
    // Stop any work the agent left running (a hung tool call), and make its later steps throw.
    if (!controller.signal.aborted) controller.abort(new RolloutAbortedError('The rollout has ended.'))
  }
  return { trajectory: recorder.finish(), stoppedByBudget: false }
}

/** Builds the trajectory while the agent runs; its `context` is the agent's `ctx`. */
class TrajectoryRecorder {
  readonly context: AgentContext
  output: Json | undefined
  private readonly steps: Step[] = []
  private readonly preamble: Observation[] = []
  private error: Trajectory['error']
  private toolCalls = 0
  private heldSteps = 0
  private matchedSteps = 0
  private costUsd = 0
  private finished = false

  constructor(
    private readonly scenario: Scenario<unknown, unknown>,
    private readonly settings: RolloutSettings,
    private readonly signal: AbortSignal,
    private readonly deadline: number,
  ) {
    this.context = {
      step: (name, policy, options) => this.step(name, policy, options),
      tool: (name, args, impl) => this.tool(name, args, impl),
      signal,
      rollout: Object.freeze({ seed: settings.seed, index: settings.rollout }),
    }
  }

  private checkAlive(): void {
    if (this.finished || this.signal.aborted) {
      throw (this.signal.reason as Error | undefined) ?? new RolloutAbortedError('The rollout has ended.')
    }
    // A loop of awaits on settled promises never yields to timers, so the deadline is also
    // checked here, at every step and tool call.
    if (performance.now() > this.deadline) {
      throw new RolloutTimeoutError(`The rollout exceeded timeoutMs (${this.settings.timeoutMs} ms).`)
    }
  }

  private async step<A extends Json>(name: string, policy: Policy<A>, options: StepOptions<A> = {}): Promise<A> {
    this.checkAlive()
    const index = this.steps.length
    if (index >= this.settings.maxSteps) {
      throw new MaxStepsExceededError(
        `The rollout took more than maxSteps (${this.settings.maxSteps}) steps; the agent seems to loop (last step "${name}").`,
      )
    }
    const where = `The context of step ${index} "${name}"`
    if (options.context !== undefined) assertJson(options.context, where)
    const digest = options.context === undefined ? null : contextDigest(options.context)
    const directive = this.settings.plan.step(index, name)

    let action: Json
    let source: StepSource
    let diverged = false
    let policyCalled = false
    if (directive.kind === 'hold') {
      this.heldSteps++
      const recorded = directive.recorded
      diverged = recorded.name !== name || recorded.contextDigest !== digest
      if (!diverged) this.matchedSteps++
      else if (this.settings.onDivergence === 'error') {
        throw new ReplayDivergenceError(
          `Held step ${index} diverged from the recording: recorded "${recorded.name}" (context ${recorded.contextDigest}), replay reached "${name}" (context ${digest}).`,
        )
      }
      // A step of another name is another decision: the recording says nothing about it.
      if (recorded.name === name) {
        action = recorded.action
        source = 'held'
      } else {
        action = await this.callPolicy(policy, index, name, options.context)
        source = 'policy'
        policyCalled = true
      }
    } else if (directive.kind === 'force') {
      action = directive.action
      source = 'forced'
    } else {
      const context = directive.kind === 'edit' ? directive.edit(options.context) : options.context
      const swapped = directive.kind === 'sample' ? directive.policy : undefined
      action = await this.callPolicy(swapped ?? policy, index, name, context)
      source = directive.kind === 'edit' ? 'edited' : swapped === undefined ? 'policy' : 'swapped'
      policyCalled = true
    }
    assertJson(action, `The action of step ${index} "${name}"`)
    this.checkAlive()

    const step: Step = {
      index,
      name,
      action,
      ...(options.context === undefined ? {} : { context: options.context }),
      contextDigest: digest,
      source,
      observations: [],
    }
    if (diverged) step.diverged = true
    if (policyCalled && options.costUsd !== undefined) {
      const cost = options.costUsd(action as A)
      step.costUsd = cost
      this.costUsd += cost
      this.settings.budget.chargeCost(cost)
    }
    if (options.meta !== undefined) step.meta = options.meta(action as A)
    this.steps.push(step)
    return action as A
  }

  private async callPolicy(policy: Policy, index: number, name: string, context: Json | undefined): Promise<Json> {
    if (this.settings.budget.costExhausted) {
      throw new BudgetExceededError(`The cost budget is spent (${this.settings.budget.describe()}).`, undefined)
    }
    const { seed, rollout } = this.settings
    return policy(stepStream(seed, rollout, index), {
      name,
      index,
      context,
      seed: providerSeed(seed, rollout, index),
      signal: this.signal,
    })
  }

  private async tool<R extends Json | undefined>(
    name: string,
    args: Json,
    impl: (args: Json) => R | Promise<R>,
  ): Promise<R> {
    this.checkAlive()
    if (++this.toolCalls > this.settings.maxSteps) {
      throw new MaxStepsExceededError(
        `The rollout made more than maxSteps (${this.settings.maxSteps}) tool calls; the agent seems to loop (last tool "${name}").`,
      )
    }
    assertJson(args, `The arguments of tool call "${name}"`)
    const stepIndex = this.steps.length - 1
    const observations = stepIndex === -1 ? this.preamble : (this.steps[stepIndex] as Step).observations
    const directive = this.settings.plan.tool({
      step: stepIndex,
      position: observations.length,
      positionOfTool: observations.filter((observation) => observation.tool === name).length,
      tool: name,
    })
    if (directive.kind === 'recorded') {
      observations.push({ tool: name, args, ...resultField(directive.recorded.result), source: 'recorded' })
      return directive.recorded.result as R
    }
    if (directive.kind === 'replaced') {
      observations.push({ tool: name, args, result: directive.result, source: 'replaced' })
      return directive.result as R
    }
    let result: R
    try {
      result = await impl(args)
    } catch (error) {
      observations.push({ tool: name, args, error: messageOf(error), source: 'live' })
      throw error
    }
    this.checkAlive()
    if (result !== undefined) assertJson(result, `The result of tool call "${name}"`)
    observations.push({ tool: name, args, ...resultField(result), source: 'live' })
    return result
  }

  fail(error: unknown): void {
    this.error = { kind: errorKind(error), name: nameOf(error), message: messageOf(error) }
  }

  finish(): Trajectory {
    this.finished = true
    const { scenario, settings } = this
    const trajectory: Trajectory = {
      schema: TRAJECTORY_SCHEMA,
      agent: scenario.agent.name,
      input: scenario.input as Json,
      seed: settings.seed,
      rollout: settings.rollout,
      preamble: this.preamble,
      steps: this.steps,
    }
    if (settings.plan.label !== undefined) trajectory.intervention = settings.plan.label
    if (this.output !== undefined && this.error === undefined) trajectory.output = this.output
    if (this.error !== undefined) trajectory.error = this.error
    if (settings.plan.label !== undefined) {
      trajectory.replay = { heldSteps: this.heldSteps, matchedSteps: this.matchedSteps }
    }
    if (this.costUsd > 0) trajectory.costUsd = this.costUsd
    return trajectory
  }
}

function resultField(result: Json | undefined): { result?: Json } {
  return result === undefined ? {} : { result }
}

function errorKind(error: unknown): RolloutErrorKind {
  switch (nameOf(error)) {
    case 'RolloutTimeoutError':
      return 'timeout'
    case 'MaxStepsExceededError':
      return 'max-steps'
    case 'RolloutAbortedError':
    case 'AbortError':
      return 'aborted'
    case 'NotJsonError':
      return 'not-json'
    default:
      return 'threw'
  }
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : typeof error
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  try {
    return `${JSON.stringify(error)} (thrown value, not an Error)`
  } catch {
    return String(error)
  }
}
