// The trajectory built from what a rollout recorded: steps up to the first hole, the gap rule,
// which optional fields appear when, and keys in schema order.
import { describe, expect, it } from 'vitest'
import { assembleTrajectory, type RecordedRollout } from '../../../src/rollout/assemble-trajectory.js'
import type { Step } from '../../../src/trajectory/schema.js'

function step(index: number): Step {
  return { index, name: `s${index}`, action: index, contextDigest: null, source: 'policy', observations: [] }
}

function recorded(overrides: Partial<RecordedRollout> = {}): RecordedRollout {
  return {
    agent: 'agent',
    input: { q: 1 },
    seed: 7,
    rollout: 3,
    case: undefined,
    intervention: undefined,
    preamble: [],
    steps: [step(0), step(1)],
    failedStep: undefined,
    output: 'done',
    error: undefined,
    heldSteps: 0,
    matchedSteps: 0,
    costUsd: 0,
    ...overrides,
  }
}

describe('assembleTrajectory', () => {
  it('a plain rollout: keys in schema order, no intervention, replay or cost', () => {
    const parts = recorded()
    const trajectory = assembleTrajectory(parts)
    expect(Object.keys(trajectory)).toEqual([
      'schema',
      'agent',
      'input',
      'seed',
      'rollout',
      'preamble',
      'steps',
      'output',
    ])
    expect(trajectory).toMatchObject({ agent: 'agent', input: { q: 1 }, seed: 7, rollout: 3, output: 'done' })
    // No hole: every recorded step, in an array of the trajectory's own (the recorder empties its list).
    expect(trajectory.steps).toEqual(parts.steps)
    expect(trajectory.steps).not.toBe(parts.steps)
  })

  it('under an intervention: the label after rollout, the replay counts after the output', () => {
    const trajectory = assembleTrajectory(
      recorded({ intervention: 'hold(all)', heldSteps: 2, matchedSteps: 1, costUsd: 0.5 }),
    )
    expect(Object.keys(trajectory)).toEqual([
      'schema',
      'agent',
      'input',
      'seed',
      'rollout',
      'intervention',
      'preamble',
      'steps',
      'output',
      'replay',
      'costUsd',
    ])
    expect(trajectory.intervention).toBe('hold(all)')
    expect(trajectory.replay).toEqual({ heldSteps: 2, matchedSteps: 1 })
    expect(trajectory.costUsd).toBe(0.5)
  })

  it('an error drops the output', () => {
    const error = { kind: 'timeout', name: 'RolloutTimeoutError', message: 'late' } as const
    const trajectory = assembleTrajectory(recorded({ error }))
    expect(trajectory.output).toBeUndefined()
    expect(trajectory.error).toBe(error)
  })

  it('a hole before a completed step is an error naming the step still running', () => {
    const trajectory = assembleTrajectory(recorded({ steps: [step(0), undefined, step(2)] }))
    expect(trajectory.steps).toEqual([step(0)])
    expect(trajectory.output).toBeUndefined()
    expect(trajectory.error).toEqual({
      kind: 'threw',
      name: 'Error',
      message:
        'The rollout ended but step 1 was still running while later steps completed; a trajectory cannot have a gap (await each ctx.step).',
    })
  })

  it('a hole left by a failed policy names the step and its message', () => {
    const trajectory = assembleTrajectory(
      recorded({
        steps: [undefined, step(1)],
        failedStep: { index: 0, name: 'plan', message: 'model overloaded' },
      }),
    )
    expect(trajectory.steps).toEqual([])
    expect(trajectory.error?.message).toBe(
      'The rollout ended but step 0 "plan" failed (model overloaded) while later steps completed; a trajectory cannot have a gap (await each ctx.step).',
    )
  })

  it('a hole does not replace the error the rollout already has', () => {
    const error = { kind: 'aborted', name: 'RolloutAbortedError', message: 'cancelled' } as const
    const trajectory = assembleTrajectory(recorded({ steps: [undefined, step(1)], error }))
    expect(trajectory.error).toBe(error)
    expect(trajectory.steps).toEqual([])
  })
})
