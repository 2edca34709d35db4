// The README's and the documentation site's code blocks are generated: the Quick start from
// examples/quick-start/support.ts and from running it, outputs from what the library prints, and
// every other block from a file under examples/ (type-checked, its tests run with the suite). A
// difference means a page shows code, output or data the library no longer has; `npm run readme`
// refreshes them, as a deliberate change. A block outside the markers would be checked by nothing,
// so there is none; and every relative link of the pages leads to a page and a heading that exist.
// Every seeded figure the pages quote is filled from a bench's stored output (bench/figures/, see
// scripts/doc-figures.ts) beside the command that printed it, so a figure that no longer matches
// its bench fails here.
import { access, readFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  README_PATH,
  blockNames,
  commentBlockNames,
  documentedPages,
  fillCommentExamples,
  figurePages,
  generatedBlocks,
  readmeBlock,
  referenceSources,
  replaceReadmeBlock,
  unmarkedCommentExamples,
  unmarkedFences,
} from '../scripts/readme-output.js'
import { fillFigures, figureKeys, outputsFor, staleFigures } from '../scripts/doc-figures.js'
import { ROOT } from '../scripts/public-entries.js'

const STALE = 'stale: `npm run readme` refreshes it'

const pages = await documentedPages()
const figurePaths = await figurePages()
const texts = new Map(
  await Promise.all(pages.map(async (page) => [page, await readFile(page, 'utf8')] as const)),
)
const name = (page: string) => relative(ROOT, page)

describe('the documented pages', () => {
  it('are the README and every page of the site', () => {
    const names = pages.map(name)
    expect(names[0]).toBe('README.md')
    for (const page of ['docs/index.md', 'docs/guide/index.md', 'docs/output/index.md', 'docs/cli.md']) {
      expect(names).toContain(page)
    }
    expect(names.filter((page) => page.startsWith('docs/api/') || page === 'docs/ARCHITECTURE.md')).toEqual(
      [],
    )
  })

  it.each(pages.map(name))('%s has every code block between generated-block markers', (page) => {
    expect(
      unmarkedFences(texts.get(resolve(ROOT, page)) as string),
      `${page}: lines of unchecked code blocks`,
    ).toEqual([])
  })
})

describe('the generated blocks', () => {
  let blocks: Map<string, string>
  beforeAll(async () => {
    blocks = await generatedBlocks([...texts.values()].flatMap(blockNames))
  })

  it('include the Quick start in the README, and examples and outputs on the site', () => {
    const readme = texts.get(README_PATH) as string
    expect(blockNames(readme)).toEqual(expect.arrayContaining(['quick-start:code', 'quick-start:output']))
    const site = [...texts.entries()]
      .filter(([page]) => page !== README_PATH)
      .flatMap(([, text]) => blockNames(text))
    expect(site.filter((block) => block.startsWith('example:')).length).toBeGreaterThan(20)
    expect(site).toEqual(
      expect.arrayContaining(['output:cli-help', 'output:invalid-option', 'quick-start:output']),
    )
  })

  it.each(pages.map(name))('%s shows what its examples are and what the library prints', (page) => {
    const text = texts.get(resolve(ROOT, page)) as string
    for (const block of blockNames(text)) {
      expect(readmeBlock(text, block), `${page}, block ${block}: ${STALE}`).toBe(blocks.get(block))
    }
  })
})

describe('the seeded figures', () => {
  let outputs: Map<string, string>
  let pagesWithFigures: Map<string, string>
  beforeAll(async () => {
    pagesWithFigures = new Map(
      await Promise.all(figurePaths.map(async (page) => [page, await readFile(page, 'utf8')] as const)),
    )
    const texts = [...pagesWithFigures.values()]
    outputs = await outputsFor(
      texts
        .flatMap(blockNames)
        .flatMap((block) => (block.startsWith('bench:') ? [block.slice('bench:'.length)] : [])),
      texts.flatMap(figureKeys),
    )
  })

  it('are on the benchmarks page and on every page that quotes a bench', () => {
    const quoting = [...pagesWithFigures.entries()]
      .filter(
        ([, text]) =>
          figureKeys(text).length > 0 || blockNames(text).some((block) => block.startsWith('bench:')),
      )
      .map(([page]) => name(page))
    expect(quoting).toEqual(
      expect.arrayContaining([
        'docs/method/benchmarks.md',
        'docs/method/statistics.md',
        'docs/method/index.md',
        'docs/matchers/index.md',
        'docs/matchers/judges.md',
        'docs/attribution/binary-search.md',
        'docs/attribution/context.md',
        'docs/attribution/contrastive.md',
        'docs/attribution/shapley.md',
        'docs/cassettes.md',
        'docs/ARCHITECTURE.md',
      ]),
    )
    // Every page that names a bench's command and prints a figure beside it goes through here: a
    // bench named with no figure marked would be a figure that nothing checks.
    for (const [page, text] of pagesWithFigures) {
      if (!/`(?:[A-Z_]+=\S+ )*npx tsx bench\//.test(text)) continue
      expect(
        figureKeys(text).length + blockNames(text).length,
        `${name(page)} quotes a bench`,
      ).toBeGreaterThan(0)
    }
  })

  it.each(figurePaths.map(name))('%s shows what its benches printed', (page) => {
    const text = pagesWithFigures.get(resolve(ROOT, page)) as string
    expect(staleFigures(text, outputs, page), `${page}: ${STALE}`).toEqual([])
  })

  it('fail the check when one digit of a figure changed', () => {
    const page = resolve(ROOT, 'docs/method/benchmarks.md')
    const text = pagesWithFigures.get(page) as string
    expect(staleFigures(text, outputs, name(page))).toEqual([])
    const marker = '<!--fig:attribution.generated-ours-->'
    const at = text.indexOf(marker) + marker.length
    expect(at).toBeGreaterThan(marker.length)
    const digit = text.slice(at).search(/\d/)
    const shown = Number(text[at + digit])
    const edited = text.slice(0, at + digit) + String((shown + 1) % 10) + text.slice(at + digit + 1)
    expect(staleFigures(edited, outputs, name(page))).toEqual([
      expect.stringMatching(/^attribution\.generated-ours: .* → 110\.8$/),
    ])
    expect(fillFigures(edited, outputs, name(page))).toBe(text)
  })

  it('fail the check when one digit of a bench block changed', async () => {
    const page = resolve(ROOT, 'docs/method/benchmarks.md')
    const text = pagesWithFigures.get(page) as string
    const block = readmeBlock(text, 'bench:score-gate')
    const edited = block.replace('97.5%', '97.6%')
    expect(edited).not.toBe(block)
    const generated = (await generatedBlocks(['bench:score-gate'])).get('bench:score-gate')
    expect(block).toBe(generated)
    expect(edited).not.toBe(generated)
  })

  it('are refused where no command is beside them', () => {
    const page = 'A figure: <!--fig:binary-search.accuracy-->97.6%<!--/fig--> of runs.\n'
    expect(() => fillFigures(page, outputs, 'page.md')).toThrow(
      /page\.md: the figure "binary-search\.accuracy" needs its command `npx tsx bench\/binary-search\.ts`/,
    )
    const beside = `${page.trimEnd()} (\`npx tsx bench/binary-search.ts\`)\n`
    expect(fillFigures(beside, outputs, 'page.md')).toBe(beside)
  })
})

describe('the examples of the API reference (doc comments of src/ and matchers/)', () => {
  let sources: Map<string, string>
  beforeAll(async () => {
    const files = await referenceSources()
    sources = new Map(
      await Promise.all(files.map(async (file) => [file, await readFile(file, 'utf8')] as const)),
    )
  })

  it('are generated from example files, the judge’s and check’s among them', () => {
    expect(sources.size).toBeGreaterThan(100)
    const named = [...sources.values()].flatMap(commentBlockNames)
    expect(named).toEqual(
      expect.arrayContaining([
        'example:examples/ai-sdk/judge.test.ts#reference',
        'example:examples/node-test/support-gate.test.ts#gate',
      ]),
    )
  })

  it('are all between generated-block markers, as on the pages', () => {
    const unmarked = [...sources.entries()].flatMap(([file, source]) =>
      unmarkedCommentExamples(source).map((line) => `${name(file)}:${line}`),
    )
    expect(unmarked).toEqual([])
  })

  it('show what their example files hold', async () => {
    const withExamples = [...sources.entries()].filter(([, source]) => commentBlockNames(source).length > 0)
    expect(withExamples.length).toBeGreaterThanOrEqual(4)
    const blocks = await generatedBlocks(withExamples.flatMap(([, source]) => commentBlockNames(source)))
    for (const [file, source] of withExamples) {
      expect(fillCommentExamples(source, blocks, name(file)), `${name(file)}: ${STALE}`).toBe(source)
    }
  })

  it('refuse a hand-written example, and a stale one', async () => {
    const handWritten = [
      '/**',
      ' * A judge.',
      ' *',
      ' * @example',
      " * `toRarely(judge(model, '…'), 0.05)`",
      ' *',
      ' * ```ts',
      " * await expect(agent).toRarely(judge(model, '…'), 0.05)",
      ' * ```',
      ' */',
      'export function judge() {}',
    ].join('\n')
    expect(unmarkedCommentExamples(handWritten)).toEqual([4, 7])
    const block = 'example:examples/ai-sdk/judge.test.ts#reference'
    const stale = [
      '/**',
      ' * @example',
      ` * <!-- ${block} -->`,
      ' * ```ts',
      " * await expect(agent).toRarely(judge(model, '…'), 0.05)",
      ' * ```',
      ` * <!-- /${block} -->`,
      ' */',
    ].join('\n')
    expect(unmarkedCommentExamples(stale)).toEqual([])
    const filled = fillCommentExamples(stale, await generatedBlocks([block]), 'stale.ts')
    expect(filled).not.toBe(stale)
    expect(filled).toContain(" * import { judge } from 'vitest-causal-replay/ai-sdk'\n")
    expect(filled).toMatch(/^ \* <!-- \/example:examples\/ai-sdk\/judge\.test\.ts#reference -->\n \*\/$/m)
  })
})

/** A heading's anchor as VitePress writes it (@mdit-vue/shared's slugify). */
function vitepressSlug(heading: string): string {
  return (
    heading
      .normalize('NFKD')
      .replace(/[\u0300-\u036F]/g, '')
      // eslint-disable-next-line no-control-regex -- VitePress drops control characters from anchors
      .replace(/[\u0000-\u001f]/g, '')
      .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '')
      .replace(/^(\d)/, '_$1')
      .toLowerCase()
  )
}

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The headings of a Markdown page, outside code blocks. */
function headings(markdown: string): string[] {
  const found: string[] = []
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line)
    if (heading !== null) found.push(heading[1] as string)
  }
  return found
}

/** The relative links of a page (Markdown links and images), outside code blocks. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((link) => !/^[a-z]+:/i.test(link))
}

describe('relative links', () => {
  it.each(pages.map(name))('of %s lead to a file and a heading that exist', async (page) => {
    const path = resolve(ROOT, page)
    const broken: string[] = []
    for (const link of relativeLinks(texts.get(path) as string)) {
      const [target = '', anchor] = link.split('#')
      const file = target === '' ? path : resolve(dirname(path), target)
      // The API reference is generated when the site is built, and VitePress checks links into it.
      if (file.startsWith(resolve(ROOT, 'docs/api'))) continue
      try {
        await access(file)
      } catch {
        broken.push(`${link}: no file ${name(file)}`)
        continue
      }
      if (anchor === undefined || !file.endsWith('.md')) continue
      const targetHeadings = headings(await readFile(file, 'utf8'))
      const slugs = page === 'README.md' ? [vitepressSlug, githubSlug] : [vitepressSlug]
      for (const slug of slugs) {
        if (!targetHeadings.some((heading) => slug(heading) === anchor)) {
          broken.push(`${link}: no heading of ${name(file)} has the anchor #${anchor} (${slug.name})`)
        }
      }
    }
    expect(broken).toEqual([])
  })
})

describe('the generated-block markers', () => {
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

  it('are found in order, and a code block outside them is reported by its line', () => {
    const page = `${readme}\n\n\`\`\`ts\nunchecked()\n\`\`\`\n<!-- example:examples/docs/agents.ts#x -->\n<!-- /example:examples/docs/agents.ts#x -->\n`
    expect(blockNames(page)).toEqual(['quick-start:output', 'example:examples/docs/agents.ts#x'])
    expect(unmarkedFences(page)).toEqual([9])
  })
})
