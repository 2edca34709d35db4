import {
  AIMessage,
  type BaseMessage,
  type StandardMessageStructure,
  type UsageMetadata,
} from '@langchain/core/messages'
import { FakeListChatModel } from '@langchain/core/utils/testing'
import type { ChatResult } from '@langchain/core/outputs'
import { describe, expect, test } from 'vitest'
import { judge } from '../../src/adapters/langchain/index.js'
import { check, rarely } from '../../src/index.js'
import { runRollouts } from '../../src/entries/replay.js'
import { refunder } from '../scm/refunder.js'

const JUDGE_USAGE: UsageMetadata = { input_tokens: 50, output_tokens: 1, total_tokens: 51 }

/** LangChain's fake chat model, answering YES when the run it is shown called issue_refund; it keeps the seeds it got. */
class RefundJudgeModel extends FakeListChatModel {
  readonly seeds: unknown[] = []
  constructor() {
    super({ responses: ['unused'] })
  }
  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    this.seeds.push((options as { seed?: unknown }).seed)
    const text = messages.some((message) => String(message.content).includes('issue_refund')) ? 'YES' : 'NO'
    return {
      generations: [
        {
          text,
          message: new AIMessage<StandardMessageStructure>({
            content: text,
            usage_metadata: JUDGE_USAGE,
          }),
        },
      ],
    }
  }
}

describe('judge (LangChain)', () => {
  test('judges runs through the chat model, counted in the cost, with the seed of the run’s judge stream', async () => {
    const model = new RefundJudgeModel()
    const refunds = judge(model, 'issues a refund')
    const { verdict, message } = await check(
      refunder(0.3),
      rarely(refunds, { atMost: 0.05, seed: 4, attribute: false, maxRollouts: 40 }),
    )
    expect(verdict.kind).toBe('fail')
    expect(message).toContain('expected refunder to rarely be judged "issues a refund"')
    expect(verdict.cost?.modelCalls).toBe(model.seeds.length)
    expect(verdict.cost?.inputTokens).toBe(50 * model.seeds.length)
    expect(model.seeds.every((seed) => typeof seed === 'number')).toBe(true)
    // The same (seed, rollout) gives the same seed however the run went.
    const a = await runRollouts(refunder(0.2), { rollouts: 3, seed: 9 })
    const b = await runRollouts(refunder(0.8), { rollouts: 3, seed: 9 })
    model.seeds.length = 0
    for (const trajectory of [...a.trajectories, ...b.trajectories]) await refunds(trajectory)
    expect(model.seeds.slice(0, 3)).toEqual(model.seeds.slice(3))
  })

  test("FakeListChatModel's unparseable answer is an error outcome", async () => {
    const model = new FakeListChatModel({ responses: ['I cannot tell.'] })
    const { verdict } = await check(
      refunder(0.3),
      rarely(judge(model, 'issues a refund'), { atMost: 0.05, seed: 1, attribute: false }),
    )
    expect(verdict.errors.examples[0]?.error).toMatchObject({ name: 'JudgeError', kind: 'threw' })
    expect(verdict.errors.examples[0]?.error.message).toContain(
      'answered neither YES nor NO: "I cannot tell."',
    )
  })
})
