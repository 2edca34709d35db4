import { Usage, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents'
import { describe, expect, test } from 'vitest'
import { judge } from '../../src/adapters/openai-agents/index.js'
import { check, rarely, usually } from '../../src/index.js'
import { refunder } from '../scm/refunder.js'

/** An Agents SDK model that answers YES when the run it is shown called issue_refund; it keeps its requests. */
class RefundJudgeModel implements Model {
  readonly requests: ModelRequest[] = []
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request)
    const text = String(request.input).includes('issue_refund') ? 'YES' : 'NO'
    return {
      usage: new Usage({ requests: 1, inputTokens: 60, outputTokens: 1, totalTokens: 61 }),
      output: [
        { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] },
      ],
      responseId: 'resp',
    }
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('not used')
  }
}

describe('judge (OpenAI Agents SDK)', () => {
  test('judges runs through the Model, priced and counted, with the seed in providerData', async () => {
    const model = new RefundJudgeModel()
    const refunds = judge(model, 'issues a refund', {
      modelId: 'judge-model',
      prices: { 'judge-model': { inputPerMTok: 2, outputPerMTok: 8 } },
    })
    const { verdict } = await check(
      refunder(0.02),
      usually(refunds, { atLeast: 0.5, seed: 6, attribute: false, maxRollouts: 60 }),
    )
    // The agent seldom refunds: "usually issues a refund" fails.
    expect(verdict.kind).toBe('fail')
    expect(verdict.predicate).toBe('be judged "issues a refund"')
    expect(verdict.cost?.modelCalls).toBe(model.requests.length)
    expect(verdict.cost?.usd).toBeCloseTo((model.requests.length * (60 * 2 + 8)) / 1e6, 12)
    expect(model.requests[0]?.systemInstructions).toContain(
      'Begin your answer with the single word YES or NO',
    )
    expect(typeof model.requests[0]?.modelSettings.providerData?.['seed']).toBe('number')
    expect(model.requests[0]?.modelSettings.temperature).toBe(0)
  })

  test('prices without a modelId are refused by name', () => {
    expect(() =>
      judge(new RefundJudgeModel(), 'issues a refund', {
        prices: { x: { inputPerMTok: 1, outputPerMTok: 1 } },
      }),
    ).toThrow(/modelId/)
  })

  test('a model that throws gives an error outcome; allowErrors leaves it out of the rate', async () => {
    class DownModel extends RefundJudgeModel {
      override async getResponse(): Promise<ModelResponse> {
        throw new Error('503 from the judge')
      }
    }
    const { verdict } = await check(
      refunder(0.3),
      rarely(judge(new DownModel(), 'issues a refund'), {
        atMost: 0.5,
        seed: 1,
        attribute: false,
        allowErrors: true,
        maxRollouts: 5,
        minRollouts: 1,
      }),
    )
    expect(verdict.errors.count).toBe(5)
    expect(verdict.observed.n).toBe(0)
    expect(verdict.errors.examples[0]?.error.message).toContain('failed: 503 from the judge')
  })
})
