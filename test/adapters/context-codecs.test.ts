import { describe, expect, it } from 'vitest'
import { CONTEXT_CODECS } from '../../src/adapters/context-codecs.js'
import type { JsonObject } from '../../src/entries/schemas.js'

// One model call in each SDK's format, as its adapter writes it.
const CONTEXTS: Record<string, JsonObject> = {
  'ai-sdk': { call: 'generate', prompt: [{ role: 'user', content: 'Refund me.' }] },
  langchain: { call: 'generate', messages: [{ type: 'human', data: { content: 'Refund me.' } }] },
  'openai-agents': { call: 'response', systemInstructions: 'Be careful.', input: 'Refund me.' },
}

describe('CONTEXT_CODECS', () => {
  it('reads each SDK context with its own codec only: the AI SDK and LangChain share call names', () => {
    for (const [sdk, context] of Object.entries(CONTEXTS)) {
      const readers = Object.entries(CONTEXT_CODECS).filter(([, codec]) => codec(context) !== undefined)
      expect(
        readers.map(([name]) => name),
        sdk,
      ).toEqual([sdk])
    }
  })

  it('reads no plain object context: those are split by their keys', () => {
    for (const codec of Object.values(CONTEXT_CODECS)) {
      expect(codec({ call: 'generate', ticket: 'late order' })).toBeUndefined()
      expect(codec({ prompt: [] })).toBeUndefined()
    }
  })
})
