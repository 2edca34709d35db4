import { defineAgent, runRollouts } from '../src/index.js'
const B = defineAgent({ name: 'x', input: null, async run(_i, ctx) {
  let s = 0
  for (let i = 0; i < 10; i++) s += await ctx.step('d', () => 0.5)
  return s
}})
for (let rep = 0; rep < 10; rep++) await runRollouts(B, { rollouts: 20000, seed: rep, concurrency: 1 })
