import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import '../../../matchers/index.js'
import { calledTool, check, defineAgent, rarely } from '../../../src/index.js'

const THIS_FILE = fileURLToPath(import.meta.url)
const agent = defineAgent({
  name: 'plain',
  input: null,
  async run(_input: null, ctx) {
    return ctx.step('decide', (rng) => (rng() < 0.5 ? 'a' : 'b'))
  },
})

/** The first frame of an error's stack: where the test runner points. */
function firstFrame(error: unknown): string {
  const stack = (error as Error).stack ?? ''
  return stack.split('\n').find((line) => /^\s+at /.test(line)) ?? ''
}

async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}

describe('an option error points at the line that made the claim', () => {
  it('a claim with a typo', async () => {
    const error = await thrown(() => rarely(calledTool('x'), { maxRolouts: 10 } as never))
    expect((error as Error).message).toContain('unknown option `maxRolouts`')
    expect(firstFrame(error)).toContain(THIS_FILE)
  })

  it('a matcher with a typo, though Vitest calls it through a dozen frames of its own', async () => {
    const error = await thrown(() => expect(agent).toRarely(calledTool('x'), { atmost: 0.1 } as never))
    expect((error as Error).message).toContain('unknown option `atmost`')
    expect(firstFrame(error)).toContain(THIS_FILE)
  })

  it("check's own options, found after an await", async () => {
    const error = await thrown(() => check(agent, rarely(calledTool('x')), { reportdir: 'x' } as never))
    expect((error as Error).message).toContain('reportdir')
    expect(firstFrame(error)).toContain(THIS_FILE)
  })
})
