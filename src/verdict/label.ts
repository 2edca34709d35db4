/**
 * How a message names a predicate, from its function name: `refundWrongly` → "refund wrongly",
 * `calledTool(issue_refund)` → "call issue_refund", `is_polite` → "is polite". An anonymous
 * function gives "satisfy the predicate" — pass `label` to say more.
 */
export function predicateLabel(predicate: { readonly name: string }): string {
  const name = predicate.name.trim()
  const called = /^calledTool\((.+)\)$/.exec(name)
  if (called !== null) return `call ${called[1]}`
  if (name === '' || name === 'anonymous' || name === 'predicate') return 'satisfy the predicate'
  // `bound fn` comes from Function.prototype.bind.
  const bare = name.replace(/^bound /, '')
  if (!/^[A-Za-z_$][\w$]*$/.test(bare)) return bare
  return bare
    .replace(/[_$]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .trim()
}
