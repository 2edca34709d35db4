import { describe, expect, it } from 'vitest'
import { allObservations, calledTool, findStep, findSteps, type Trajectory } from '../../../src/index.js'
import { record } from '../../../src/entries/replay.js'
import { chainAgent } from '../agents.js'

const factual: Trajectory = await record(chainAgent().agent.on({ steps: 3 }), { seed: 3 })

describe('calledTool', () => {
  it('is true when the run called the tool, in the preamble or after any step', () => {
    expect(calledTool('config')(factual)).toBe(true)
    expect(calledTool('audit')(factual)).toBe(true)
    expect(calledTool('issue_refund')(factual)).toBe(false)
  })

  it('filters by arguments when asked', () => {
    expect(calledTool('echo', (args) => (args as { turn: number }).turn === 2)(factual)).toBe(true)
    expect(calledTool('echo', (args) => (args as { turn: number }).turn === 3)(factual)).toBe(false)
  })

  it('has a readable name for messages', () => {
    expect(calledTool('issue_refund').name).toBe('calledTool(issue_refund)')
  })
})

describe('step lookup', () => {
  it('findStep gives the first step of a name; findSteps all of them, in order', () => {
    expect(findStep(factual, 'think')).toBe(factual.steps[0])
    expect(findStep(factual, 'act')).toBe(factual.steps[1])
    expect(findStep(factual, 'reply')).toBeUndefined()
    expect(findSteps(factual, 'think').map((s) => s.index)).toEqual([0, 2])
    expect(findSteps(factual, 'reply')).toEqual([])
  })

  it('allObservations lists every tool call, preamble first, in call order', () => {
    expect(allObservations(factual).map((o) => o.tool)).toEqual([
      'config',
      'echo',
      'audit',
      'echo',
      'audit',
      'echo',
      'audit',
    ])
  })
})
