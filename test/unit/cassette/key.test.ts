import { describe, expect, test } from 'vitest'
import { stepKey, toolKey, type StepCallKey } from '../../../src/cassette/key.js'

const call: StepCallKey = {
  name: 'model#1',
  model: 'gpt-test',
  request: { prompt: [{ role: 'user', content: 'hi' }], temperature: 0.2, tools: ['a'] },
  stream: { seed: 1, rollout: 2, step: 3 },
}

describe('stepKey', () => {
  test('is the same for the same request written in another key order', () => {
    const reordered: StepCallKey = {
      stream: { step: 3, rollout: 2, seed: 1 },
      request: { tools: ['a'], temperature: 0.2, prompt: [{ content: 'hi', role: 'user' }] },
      model: 'gpt-test',
      name: 'model#1',
    }
    expect(stepKey(reordered)).toBe(stepKey(call))
    expect(stepKey(call)).toMatch(/^step:[0-9a-f]{32}$/)
  })

  test('changes with everything that determines the sample', () => {
    const variants: StepCallKey[] = [
      { ...call, name: 'model#2' },
      { ...call, model: 'gpt-other' },
      { ...call, model: undefined },
      { ...call, request: { ...(call.request as object), temperature: 0.3 } },
      { ...call, request: { ...(call.request as object), tools: ['a', 'b'] } },
      { ...call, request: undefined },
      { ...call, stream: { ...call.stream, seed: 9 } },
      { ...call, stream: { ...call.stream, rollout: 9 } },
      { ...call, stream: { ...call.stream, step: 9 } },
    ]
    const keys = new Set([stepKey(call), ...variants.map(stepKey)])
    expect(keys.size).toBe(variants.length + 1)
  })

  test('array order is part of the request (a message list is ordered)', () => {
    const swapped = { ...call, request: { ...(call.request as object), tools: ['b', 'a'] } }
    const original = { ...call, request: { ...(call.request as object), tools: ['a', 'b'] } }
    expect(stepKey(swapped)).not.toBe(stepKey(original))
  })
})

describe('toolKey', () => {
  const tool = {
    tool: 'lookup',
    args: { id: 1, region: 'eu' },
    stream: { seed: 1, rollout: 0, step: 0, position: 0 },
  }
  test('is canonical in the arguments and differs from any step key', () => {
    expect(toolKey({ ...tool, args: { region: 'eu', id: 1 } })).toBe(toolKey(tool))
    expect(toolKey(tool)).toMatch(/^tool:[0-9a-f]{32}$/)
    expect(toolKey({ ...tool, stream: { ...tool.stream, position: 1 } })).not.toBe(toolKey(tool))
    expect(toolKey({ ...tool, args: { id: 2, region: 'eu' } })).not.toBe(toolKey(tool))
  })
})
