// The README's Quick start is generated: its code from examples/quick-start/support.ts, its output
// and its failing run's trajectory from running that code. A difference means the README shows
// code, output or data the library no longer has; `npm run readme` refreshes it, as a deliberate
// change.
import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  README_PATH,
  quickStartBlocks,
  readmeBlock,
  replaceReadmeBlock,
  type ReadmeBlock,
} from '../scripts/readme-output.js'

const STALE = 'README.md is stale: `npm run readme` refreshes it'

describe('the README', () => {
  let readme: string
  let blocks: Record<ReadmeBlock, string>
  beforeAll(async () => {
    readme = await readFile(README_PATH, 'utf8')
    blocks = await quickStartBlocks()
  })

  it.each<[ReadmeBlock, string]>([
    ['quick-start:code', 'the code that examples/quick-start/support.ts runs'],
    ['quick-start:output', 'what that test prints, under "Reading the output"'],
    ['quick-start:trajectory', "that failure's run, as record returns it"],
  ])('%s block shows %s', (block) => {
    expect(readmeBlock(readme, block), STALE).toBe(blocks[block])
  })
})

describe('the README blocks', () => {
  const readme = [
    'intro',
    '<!-- quick-start:output -->',
    '```',
    'old',
    '```',
    '<!-- /quick-start:output -->',
    'end',
  ].join('\n')

  it('replace only the text between their markers', () => {
    const replaced = replaceReadmeBlock(readme, 'quick-start:output', '```\nnew\n```\n')
    expect(replaced).toBe(
      [
        'intro',
        '<!-- quick-start:output -->',
        '```',
        'new',
        '```',
        '<!-- /quick-start:output -->',
        'end',
      ].join('\n'),
    )
    expect(readmeBlock(replaced, 'quick-start:output')).toBe('```\nnew\n```\n')
  })

  it('are refused when a marker is missing or repeated', () => {
    expect(() => readmeBlock('no markers', 'quick-start:code')).toThrow(/<!-- quick-start:code -->/)
    expect(() => readmeBlock(`${readme}\n${readme}`, 'quick-start:output')).toThrow(/exactly one/)
  })
})
