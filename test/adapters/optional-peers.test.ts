import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MissingPeerDependencyError } from '../../src/errors.js'
import { loadPeer } from '../../src/load-peer.js'

const root = resolve(import.meta.dirname, '../..')
const run = promisify(execFile)

/**
 * Runs a fresh Node (with tsx for the TypeScript sources) in which the given packages cannot be
 * resolved, as on a machine where they are not installed, and imports each module in turn:
 * `ok` or the error's name and message. A fresh process, because a module, once loaded, is cached.
 */
async function importWithout(
  hidden: string[],
  modules: string[],
  directory: string,
): Promise<Record<string, string>> {
  const hook = `
const HIDDEN = ${JSON.stringify(hidden)}
export async function resolve(specifier, context, next) {
  if (HIDDEN.some((name) => specifier === name || specifier.startsWith(name + '/'))) {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL)
    error.code = 'ERR_MODULE_NOT_FOUND'
    throw error
  }
  return next(specifier, context)
}`
  const script = `
import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))
const results = {}
for (const module of ${JSON.stringify(modules)}) {
  try {
    await import(${JSON.stringify(root)} + '/' + module)
    results[module] = 'ok'
  } catch (error) {
    results[module] = error.name + ': ' + error.message
  }
}
console.log(JSON.stringify(results))
`
  const file = join(directory, `import-without-${hidden.join('-').replace(/[@/]/g, '_')}.mjs`)
  await writeFile(file, script)
  const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: root })
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, string>
}

describe('optional peer dependencies', () => {
  let directory: string
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'causal-replay-peers-'))
  })
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  test('without `ai`: the core loads, the AI SDK adapter names the package to install, the other adapter loads', async () => {
    const results = await importWithout(
      ['ai', '@ai-sdk'],
      [
        'src/index.ts',
        'src/adapters/ai-sdk/index.ts',
        'src/adapters/openai-agents/index.ts',
        'src/adapters/langchain/index.ts',
        'src/entries/testing.ts',
        'src/entries/testing/ai-sdk.ts',
        'src/entries/testing/openai-agents.ts',
      ],
      directory,
    )
    expect(results['src/index.ts']).toBe('ok')
    expect(results['src/entries/testing.ts']).toBe('ok')
    expect(results['src/entries/testing/openai-agents.ts']).toBe('ok')
    expect(results['src/entries/testing/ai-sdk.ts']).toMatch(
      /^MissingPeerDependencyError: .* needs the package "ai"/,
    )
    expect(results['src/adapters/openai-agents/index.ts']).toBe('ok')
    expect(results['src/adapters/langchain/index.ts']).toBe('ok')
    expect(results['src/adapters/ai-sdk/index.ts']).toBe(
      'MissingPeerDependencyError: vitest-causal-replay/ai-sdk needs the package "ai" (^6.0.0), an optional peer dependency that is not installed. Install it next to vitest-causal-replay: npm install --save-dev ai',
    )
  })

  test('without `@openai/agents`: the core loads, the Agents SDK adapter names the package to install, the other adapter loads', async () => {
    const results = await importWithout(
      ['@openai'],
      [
        'src/index.ts',
        'src/adapters/openai-agents/index.ts',
        'src/adapters/ai-sdk/index.ts',
        'src/adapters/langchain/index.ts',
        'src/entries/testing/openai-agents.ts',
        'src/entries/testing/langchain.ts',
      ],
      directory,
    )
    expect(results['src/index.ts']).toBe('ok')
    expect(results['src/entries/testing/langchain.ts']).toBe('ok')
    expect(results['src/entries/testing/openai-agents.ts']).toMatch(
      /^MissingPeerDependencyError: .* needs the package "@openai\/agents"/,
    )
    expect(results['src/adapters/ai-sdk/index.ts']).toBe('ok')
    expect(results['src/adapters/langchain/index.ts']).toBe('ok')
    expect(results['src/adapters/openai-agents/index.ts']).toMatch(
      /^MissingPeerDependencyError: vitest-causal-replay\/openai-agents needs the package "@openai\/agents" \(>=0\.20\.0 <1\).*npm install --save-dev @openai\/agents$/,
    )
  })

  test('without `@langchain/core`: the core loads, the LangChain adapter names the package to install, the other adapters load', async () => {
    const results = await importWithout(
      ['@langchain'],
      [
        'src/index.ts',
        'src/adapters/langchain/index.ts',
        'src/adapters/ai-sdk/index.ts',
        'src/adapters/openai-agents/index.ts',
        'src/entries/testing/langchain.ts',
        'src/entries/testing/ai-sdk.ts',
      ],
      directory,
    )
    expect(results['src/index.ts']).toBe('ok')
    expect(results['src/entries/testing/ai-sdk.ts']).toBe('ok')
    expect(results['src/entries/testing/langchain.ts']).toMatch(
      /^MissingPeerDependencyError: .* needs the package "@langchain\/core"/,
    )
    expect(results['src/adapters/ai-sdk/index.ts']).toBe('ok')
    expect(results['src/adapters/openai-agents/index.ts']).toBe('ok')
    expect(results['src/adapters/langchain/index.ts']).toBe(
      'MissingPeerDependencyError: vitest-causal-replay/langchain needs the package "@langchain/core" (>=1.0.0 <2), an optional peer dependency that is not installed. Install it next to vitest-causal-replay: npm install --save-dev @langchain/core',
    )
  })
})

describe('loadPeer', () => {
  const peer = {
    packageName: '@openai/agents',
    range: '>=0.20.0 <1',
    neededBy: 'vitest-causal-replay/openai-agents',
  }
  const notFound = (specifier: string) =>
    Object.assign(new Error(`Cannot find package '${specifier}' imported from /app/node_modules/x.js`), {
      code: 'ERR_MODULE_NOT_FOUND',
    })

  test('returns the module when it loads', async () => {
    const module = { Usage: class {} }
    await expect(loadPeer(peer, async () => module)).resolves.toBe(module)
  })

  test('a missing SDK becomes a MissingPeerDependencyError naming the package and the install command', async () => {
    const error = await loadPeer(peer, async (specifier) => Promise.reject(notFound(specifier))).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(MissingPeerDependencyError)
    expect(error).toMatchObject({ name: 'MissingPeerDependencyError', packageName: '@openai/agents' })
    expect((error as Error).message).toMatch(/npm install --save-dev @openai\/agents$/)
  })

  test('a dependency of the SDK that is missing, or any other failure, is not disguised as a missing SDK', async () => {
    const broken = notFound('openai')
    await expect(loadPeer(peer, async () => Promise.reject(broken))).rejects.toBe(broken)
    const syntax = new SyntaxError('Unexpected token')
    await expect(loadPeer(peer, async () => Promise.reject(syntax))).rejects.toBe(syntax)
  })

  test('the real import: an uninstalled package gives the message', async () => {
    await expect(loadPeer({ ...peer, packageName: 'vitest-causal-replay-no-such-sdk' })).rejects.toThrow(
      /needs the package "vitest-causal-replay-no-such-sdk"/,
    )
  })
})
