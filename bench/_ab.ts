import { defineAgent, runRollouts } from '../src/index.js'
const mk = (draw: boolean) => defineAgent({ name: 'x', input: null, async run(_i, ctx) {
  let s = 0
  for (let i = 0; i < 10; i++) s += await ctx.step('d', draw ? (rng) => rng() : () => 0.5)
  return s
}})
const A = mk(true), B = mk(false)
const res: Record<string, number[]> = { draw: [], nodraw: [] }
for (let rep = 0; rep < 8; rep++) {
  for (const [k, a] of [['draw', A], ['nodraw', B]] as const) {
    const c = process.cpuUsage(); await runRollouts(a, { rollouts: 20000, seed: rep, concurrency: 1 }); const u = process.cpuUsage(c)
    res[k]!.push((u.user + u.system) / 200000)
  }
}
for (const k in res) { const v = res[k]!.sort((a, b) => a - b); console.log(k, 'µs/step median', v[4]!.toFixed(2), 'min', v[0]!.toFixed(2)) }
