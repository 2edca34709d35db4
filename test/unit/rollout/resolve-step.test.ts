// What a step does under each plan directive: hold, force, edit, sample (own or swapped policy),
// and the divergence rule for held steps.
import { describe, expect, it } from 'vitest'
import type { Policy } from '../../../src/agent/types.js'
import { ReplayDivergenceError } from '../../../src/errors.js'
import { contextDigest, type Json } from '../../../src/json.js'
import { SAMPLE, type StepDirective } from '../../../src/rollout/plan.js'
import { resolveStep, type StepCall } from '../../../src/rollout/resolve-step.js'
import type { Step } from '../../../src/trajectory/schema.js'

const own: Policy<Json> = () => 'own'
const agentContext: Json = { messages: ['hi'] }
const snapshot: Json = { messages: ['hi'] }
const digest = contextDigest(snapshot)

function call(overrides: Partial<StepCall<Json>> = {}): StepCall<Json> {
  return {
    index: 2,
    name: 'decide',
    policy: own,
    agentContext,
    context: snapshot,
    contextDigest: digest,
    ...overrides,
  }
}

function hold(recorded: Partial<Step> = {}): StepDirective {
  return {
    kind: 'hold',
    recorded: {
      index: 2,
      name: 'decide',
      action: 'refund',
      contextDigest: digest,
      source: 'policy',
      observations: [],
      ...recorded,
    },
  }
}

describe('resolveStep', () => {
  it('sample: calls the agent’s own policy on the agent’s own context value', () => {
    const resolved = resolveStep(SAMPLE, call(), 'error')
    expect(resolved).toEqual({
      kind: 'call',
      source: 'policy',
      policy: own,
      sees: agentContext,
      diverged: false,
      matched: false,
    })
    // The agent's value itself, not the snapshot.
    expect(resolved.kind === 'call' && resolved.sees).toBe(agentContext)
  })

  it('sample with a swapped policy: calls that one', () => {
    const swapped: Policy = () => 'swapped'
    expect(resolveStep({ kind: 'sample', policy: swapped }, call(), 'count')).toEqual({
      kind: 'call',
      source: 'swapped',
      policy: swapped,
      sees: agentContext,
      diverged: false,
      matched: false,
    })
  })

  it('force: gives the plan’s action', () => {
    expect(resolveStep({ kind: 'force', action: { tool: 'escalate' } }, call(), 'error')).toEqual({
      kind: 'given',
      source: 'forced',
      action: { tool: 'escalate' },
      diverged: false,
      matched: false,
    })
  })

  it('edit: the own policy sees the edit of a copy of the snapshot, copied again', () => {
    let edited: Json | undefined
    const resolved = resolveStep(
      {
        kind: 'edit',
        edit: (context) => {
          edited = context
          ;(context as { messages: string[] }).messages.push('edited')
          return context ?? null
        },
      },
      call(),
      'count',
    )
    expect(resolved).toMatchObject({
      kind: 'call',
      source: 'edited',
      policy: own,
      diverged: false,
      matched: false,
    })
    expect(resolved.kind === 'call' && resolved.sees).toEqual({ messages: ['hi', 'edited'] })
    expect(resolved.kind === 'call' && resolved.sees).not.toBe(edited)
    // Neither the snapshot nor the agent's value changed.
    expect(snapshot).toEqual({ messages: ['hi'] })
    expect(agentContext).toEqual({ messages: ['hi'] })
  })

  it('edit without a context: the edit gets undefined; a bad result names the step', () => {
    let seen: Json | undefined = 'not called'
    const resolved = resolveStep(
      { kind: 'edit', edit: (context) => ((seen = context), 'new') },
      call({ agentContext: undefined, context: undefined, contextDigest: null }),
      'count',
    )
    expect(seen).toBeUndefined()
    expect(resolved.kind === 'call' && resolved.sees).toBe('new')
    expect(() =>
      resolveStep({ kind: 'edit', edit: () => (() => 1) as unknown as Json }, call(), 'count'),
    ).toThrow(/editContext\(2\)'s result/)
  })

  it('hold, matching: gives the recorded action and counts a match', () => {
    expect(resolveStep(hold(), call(), 'error')).toEqual({
      kind: 'given',
      source: 'held',
      action: 'refund',
      diverged: false,
      matched: true,
    })
  })

  it('hold, same name but another context: still held, flagged as diverged', () => {
    expect(resolveStep(hold({ contextDigest: 'aaaaaaaaaaaaaaaa' }), call(), 'count')).toEqual({
      kind: 'given',
      source: 'held',
      action: 'refund',
      diverged: true,
      matched: false,
    })
  })

  it('hold, another name: the own policy decides, flagged as diverged', () => {
    expect(resolveStep(hold({ name: 'choose' }), call(), 'count')).toEqual({
      kind: 'call',
      source: 'policy',
      policy: own,
      sees: agentContext,
      diverged: true,
      matched: false,
    })
  })

  it('hold with onDivergence "error": a divergence throws, naming both sides', () => {
    const act = () => resolveStep(hold({ name: 'choose', contextDigest: null }), call(), 'error')
    expect(act).toThrow(ReplayDivergenceError)
    expect(act).toThrow(
      `Held step 2 diverged from the recording: recorded "choose" (context null), replay reached "decide" (context ${digest}).`,
    )
  })
})
