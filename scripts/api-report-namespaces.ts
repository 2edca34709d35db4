// An entry's API report without the namespaces it re-exports from other entries. API Extractor
// expands `export type * as core from '../index.js'` in full: every name of the root, and of the
// namespaces the root re-exports in turn, with every declaration they reach, in each entry's report.
// A reviewer then reads the root's surface eleven times. Here each such namespace becomes one line
// that names the entry it is (`export type * as core from 'vitest-causal-replay';`), the names of it
// the entry's own signatures use are imported from that entry, and what only the namespace reached
// is left out: it is reviewed in that entry's own report.

/** A namespace an entry re-exports from another entry. */
export interface ReexportedNamespace {
  /** The namespace's name in the entry: `core`. */
  readonly name: string
  /** The entry it is, as users import it: `vitest-causal-replay`. */
  readonly importName: string
}

/** One top-level item of a report: its lines (doc tags and warnings included) and what it declares. */
interface ReportItem {
  readonly text: string
  /** The declared name; undefined for a line that declares nothing (a comment). */
  readonly name: string | undefined
  readonly exported: boolean
  /** The members of a `declare namespace` item. */
  readonly members: readonly string[] | undefined
}

const DECLARATION =
  /^(export )?(?:declare )?(?:default )?(?:abstract )?(?:function|interface|type|class|const|let|var|enum|namespace) ([\w$]+)/m

/**
 * `report` (API Extractor's `.api.md` text) with each namespace of `reexported` referenced instead
 * of expanded. `importNames` gives the entry of every namespace of the package (`types` →
 * `vitest-causal-replay/types`), so that a name reached through a nested namespace is imported
 * from the entry that declares it.
 */
export function referenceNamespaces(
  report: string,
  reexported: readonly ReexportedNamespace[],
  importNames: ReadonlyMap<string, string>,
): string {
  if (reexported.length === 0) return report
  const open = report.indexOf('```ts\n')
  const close = report.lastIndexOf('\n```')
  const head = report.slice(0, open + '```ts\n'.length)
  const tail = report.slice(close)
  const items = report
    .slice(head.length, close)
    .split(/\n\n+/)
    .map((text) => text.replace(/^\n+|\n+$/g, ''))
    .filter((text) => text !== '')
    .map(itemOf)

  // Every name a dropped namespace gives, nested namespaces included, with the entry it comes from.
  const namespaces = new Map(
    items.filter((item) => item.members !== undefined).map((item) => [item.name!, item]),
  )
  const origin = new Map<string, string>()
  const pending = reexported.map((namespace) => namespace.name)
  const dropped = new Set<string>()
  while (pending.length > 0) {
    const name = pending.shift()!
    if (dropped.has(name)) continue
    dropped.add(name)
    for (const member of namespaces.get(name)?.members ?? []) {
      if (!origin.has(member)) origin.set(member, importNames.get(name) ?? name)
      if (namespaces.has(member)) pending.push(member)
    }
  }

  // The entry's own names, and the declarations they reach that no namespace gives.
  const byName = new Map(items.filter((item) => item.name !== undefined).map((item) => [item.name!, item]))
  const kept = new Set<ReportItem>()
  const queue = items.filter(
    (item) => item.exported || (item.name === undefined && item.members === undefined),
  )
  const used = new Set<string>()
  while (queue.length > 0) {
    const item = queue.shift()!
    if (kept.has(item)) continue
    kept.add(item)
    for (const word of referencedNames(item.text)) {
      if (word === item.name) continue
      const target = byName.get(word)
      if (origin.has(word) && !(target?.exported ?? false)) used.add(word)
      else if (target !== undefined && target.members === undefined) queue.push(target)
    }
  }

  const imports = [...new Set([...used].map((name) => origin.get(name)!))].sort().map((from) => {
    const names = [...used].filter((name) => origin.get(name) === from).sort()
    return `import type { ${names.join(', ')} } from '${from}';`
  })
  const blocks: string[] = []
  for (const item of items) {
    const reference = reexported.find(
      (namespace) => namespace.name === item.name && item.members !== undefined,
    )
    if (item.text.startsWith('import ')) blocks.push([item.text, ...imports].join('\n'))
    else if (reference !== undefined)
      blocks.push(`export type * as ${reference.name} from '${reference.importName}';`)
    else if (kept.has(item)) blocks.push(item.text)
  }
  if (imports.length > 0 && !items.some((item) => item.text.startsWith('import ')))
    blocks.unshift(imports.join('\n'))
  return `${head}\n${blocks.join('\n\n')}\n${tail}`
}

function itemOf(text: string): ReportItem {
  const declaration = DECLARATION.exec(text)
  const namespace = /^declare namespace ([\w$]+) \{\n {4}export \{\n([\s\S]*?)\n {4}\}\n\}/m.exec(text)
  return {
    text,
    name: declaration?.[2],
    exported: declaration?.[1] !== undefined || /^export (\{|default )/m.test(text),
    members: namespace?.[2]
      ?.split(/,?\n/)
      .map((member) => member.trim())
      .filter((member) => member !== ''),
  }
}

/** The identifiers `text` refers to, leaving out property names (`name:`, `name?:`) and member accesses (`.name`). */
function referencedNames(text: string): Set<string> {
  const names = new Set<string>()
  for (const match of text.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)(?!\??:)/g)) names.add(match[1]!)
  return names
}
