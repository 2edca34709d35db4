import { describe, expect, it } from 'vitest'
import { Arm, ErrorTally } from '../../../../src/attribute/arms/replay-arms.js'
import type { Plan } from '../../../../src/rollout/plan.js'

const plan = {} as Plan

describe('Arm: errored replays', () => {
  it('counts errors among the rollouts run and keeps the error of the lowest index, whatever order they finish in', () => {
    const arm = new Arm(plan, 1)
    expect(arm.errors()).toBeUndefined()
    arm.outcomes.length = 6
    arm.outcomes[0] = 'good'
    arm.errored(4, 'TypeError: late')
    arm.outcomes[1] = 'bad'
    arm.errored(2, 'SyntaxError: Unexpected end of JSON input')
    arm.errored(5, 'TypeError: later')
    // Index 3 was refused by the budget: neither run nor errored.
    expect(arm.errors()).toEqual({ count: 3, of: 5, first: 'SyntaxError: Unexpected end of JSON input' })
    expect(arm.errorsBelow(2)).toBeUndefined()
    expect(arm.errorsBelow(3)).toEqual({
      count: 1,
      of: 3,
      first: 'SyntaxError: Unexpected end of JSON input',
    })
    expect(arm.scored()).toEqual({ bad: 1, n: 2 })
  })

  it('an arm that reuses another takes its errors with its outcomes', () => {
    const ran = new Arm(plan, 1)
    ran.outcomes.length = 2
    ran.outcomes[0] = 'bad'
    ran.errored(1, 'Error: boom')
    const reused = new Arm(plan, 1)
    reused.reuse(ran)
    expect(reused.errors()).toEqual({ count: 1, of: 2, first: 'Error: boom' })
  })
})

describe('ErrorTally', () => {
  it('adds the errors of many arms, the first error from the first arm added that has one', () => {
    const arms = [0, 1, 2].map(() => new Arm(plan, 1))
    const [clean, second, third] = arms as [Arm, Arm, Arm]
    clean.outcomes.push('good', 'bad')
    second.outcomes.push('good')
    second.errored(1, 'Error: second')
    third.errored(0, 'Error: third')
    const tally = new ErrorTally()
    expect(tally.report()).toBeUndefined()
    tally.add(clean)
    expect(tally.report()).toBeUndefined()
    tally.add(second)
    tally.add(third)
    expect(tally.report()).toEqual({ count: 2, of: 5, first: 'Error: second' })
  })
})
