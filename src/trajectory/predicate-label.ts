/**
 * How a message names a predicate, from its function name, worded to follow "to rarely", "to
 * usually", "to never" and "to always": the first word becomes a verb's base form where a clear
 * rule says what that form is (`refundsWrongly` → "refund wrongly", `bookedNonrefundable` → "book
 * nonrefundable", `is_rude` → "be rude", `hasPii` → "have pii", `calledTool(issue_refund)` → "call
 * issue_refund"); any other word is kept as written. An anonymous function gives "satisfy the
 * predicate" — pass `label` to say more (it always wins over this).
 */
export function predicateLabel(predicate: { readonly name: string }): string {
  const name = predicate.name.trim()
  const called = /^calledTool\((.+)\)$/.exec(name)
  if (called !== null) return `call ${called[1]}`
  if (name === '' || name === 'anonymous' || name === 'predicate') return 'satisfy the predicate'
  // `bound fn` comes from Function.prototype.bind.
  const bare = name.replace(/^bound /, '')
  if (!/^[A-Za-z_$][\w$]*$/.test(bare)) return bare
  const words = bare
    .replace(/[_$]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .trim()
    .split(/\s+/)
  const [first, ...rest] = words
  return first === undefined ? bare : [baseForm(first), ...rest].join(' ')
}

// Verbs whose base form no suffix rule finds: auxiliaries, irregular past tenses, and regular ones
// whose stem the rules in `pastToBase` would get wrong (`created` is not `creat` + `ed`).
// prettier-ignore
const IRREGULAR: Readonly<Record<string, string>> = {
  is: 'be', are: 'be', was: 'be', were: 'be', has: 'have', had: 'have', does: 'do', did: 'do',
  goes: 'go', went: 'go', made: 'make', sent: 'send', got: 'get', gave: 'give', took: 'take',
  told: 'tell', said: 'say', wrote: 'write', ran: 'run', found: 'find', paid: 'pay', kept: 'keep',
  brought: 'bring', bought: 'buy', thought: 'think', saw: 'see', came: 'come', chose: 'choose',
  spent: 'spend', lost: 'lose', built: 'build', held: 'hold', forgot: 'forget', broke: 'break',
  spoke: 'speak', understood: 'understand', used: 'use', tied: 'tie', died: 'die', lied: 'lie',
  fed: 'feed', led: 'lead', fled: 'flee', bled: 'bleed', bred: 'breed', sped: 'speed', freed: 'free',
  agreed: 'agree',
  guaranteed: 'guarantee', added: 'add', created: 'create', focused: 'focus', biased: 'bias',
  aliased: 'alias', synced: 'sync', stored: 'store', ignored: 'ignore', restored: 'restore',
  scored: 'score', explored: 'explore', cited: 'cite', invited: 'invite', united: 'unite',
  excited: 'excite', voted: 'vote', quoted: 'quote', noted: 'note', promoted: 'promote',
  completed: 'complete', deleted: 'delete', competed: 'compete', cloned: 'clone', phoned: 'phone',
  hoped: 'hope', scoped: 'scope', scaled: 'scale', guided: 'guide', persuaded: 'persuade',
  changed: 'change', arranged: 'arrange', exchanged: 'exchange', challenged: 'challenge',
  cached: 'cache', pasted: 'paste', wasted: 'waste', tasted: 'taste', controlled: 'control',
  cancelled: 'cancel', labelled: 'label', travelled: 'travel', modelled: 'model',
  focuses: 'focus', biases: 'bias', aliases: 'alias', buses: 'bus', gases: 'gas', caches: 'cache',
}

// Words that end like a past tense or a third person but are not one (or are already the base).
// prettier-ignore
const KEPT = new Set([
  'bed', 'red', 'wed', 'shed', 'shred', 'sled', 'embed', 'read', 'hundred', 'sacred', 'naked',
  'wicked', 'its', 'this', 'yes', 'news', 'always', 'sometimes', 'perhaps', 'series', 'species',
  'means', 'lens', 'plus', 'minus',
])

/** The base form of `word` when it is a third-person or past-tense verb by a clear rule, else `word`. */
function baseForm(word: string): string {
  const irregular = IRREGULAR[word]
  if (irregular !== undefined) return irregular
  if (KEPT.has(word)) return word
  return pastToBase(word) ?? thirdPersonToBase(word) ?? word
}

/**
 * `booked` → `book`, `tried` → `try`, `stopped` → `stop`, `escalated` → `escalate`. The silent `e`
 * is restored only after endings that a base form almost never lacks it after (`-v`, `-c`,
 * consonant + `l`, consonant + `at`, …); ambiguous stems are in {@link IRREGULAR} instead.
 */
function pastToBase(word: string): string | undefined {
  // `un…ed` is nearly always an adjective (`unexpected`, `unauthorized`), and `…eed` a base form
  // (`need`, `exceed`, `proceed`).
  if (!word.endsWith('ed') || word.startsWith('un') || word.endsWith('eed')) return undefined
  const stem = word.slice(0, -2)
  if (stem.length < 2) return undefined
  if (/..ied$/.test(word)) return `${word.slice(0, -3)}y`
  // Verbs double a final b, d, g, m, n, p, r or t before -ed; `call`, `pass`, `buzz` end doubled.
  if (/([bdgmnprt])\1$/.test(stem)) return stem.slice(0, -1)
  return SILENT_E.test(stem) ? `${stem}e` : stem
}

// Stem endings after which the base form ends in a silent e: `caus(e)`, `solv(e)`, `forc(e)`,
// `judg(e)`, `handl(e)`, `escalat(e)`, `issu(e)`, `requir(e)`, `secur(e)`, `shar(e)`, `invok(e)`,
// `decid(e)`, `includ(e)`, `nam(e)`, `shap(e)`, `describ(e)`, `tun(e)`, `comput(e)`, `declin(e)`,
// `fil(e)`, `summariz(e)`.
const SILENT_E =
  /(?:[^s]s|[vcu]|[^gn]g|[bcdfgkptz]l|[^aeiou]at|[iu]at|[^a]ir|[^o]ur|[^eo]ar|[^aeiou][aiou]k|[^aeiou][iua]d|[^aeiou][aiu]m|[^aeiou][aiuy]p|[^aeiou][iou]b|[^aeiou]un|[^aeiou]ut|[^aeiou]in|[^aeiou][iu]l|[^z]z)$/

/**
 * `refunds` → `refund`, `passes` → `pass`, `tries` → `try`, `uses` → `use`. Words that end in
 * `ss`, `us`, `is`, `as` or `os` (`process`, `status`, `analysis`, `bias`, `chaos`) are not a
 * verb plus `s`, and are kept.
 */
function thirdPersonToBase(word: string): string | undefined {
  if (word.length < 4 || !word.endsWith('s') || /(?:ss|us|is|as|os)$/.test(word)) return undefined
  if (/(?:sses|shes|ches|xes|zzes|oes)$/.test(word)) return word.slice(0, -2)
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  return word.slice(0, -1)
}
