import { ESLint } from 'eslint'
import { expect, it } from 'vitest'
import { REPO } from './fixture-project.js'

// Every rate matcher returns a promise; without `await` the test ends before a single rollout and
// passes. The repository's ESLint config (typescript-eslint's no-floating-promises) must catch it.
it('flags a rate assertion without await, and only that one', async () => {
  // The fixture disables the rule inline so `npm run lint` stays clean; here inline config is off.
  const eslint = new ESLint({ cwd: REPO, allowInlineConfig: false })
  const [result] = await eslint.lintFiles(['test/fixtures/lint/missing-await.ts'])
  const problems = result!.messages.map((message) => ({ line: message.line, rule: message.ruleId }))
  expect(problems).toEqual([{ line: 10, rule: '@typescript-eslint/no-floating-promises' }])
}, 60_000)
