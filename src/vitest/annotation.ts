import type { CausalReplayMetaEntry } from './meta.js'
import type { CurrentTest } from './test-context.js'
import { asciiText } from '../text/ascii.js'
import { confidenceLevel, methodName, percent, scoreNumber } from '../text/numbers.js'
import { NO_ROLLOUT_COMPLETED } from '../text/summary-table.js'
import { SEQUENTIAL_POINT } from '../text/verdict-message.js'
import { showName } from '../text/visible.js'
import { CLAIMS } from '../verdict/claim-table.js'
import type { ScoreSummary } from '../verdict/schema.js'

/**
 * A test annotation carrying the report, for reporters that show them (the default one, the HTML
 * UI); without an attachment when no report was written.
 */
export async function annotate(
  task: CurrentTest,
  entry: CausalReplayMetaEntry,
  file: string | null,
): Promise<void> {
  const { rate, score } = entry
  // A sequential gate's point is marked as read at its stop, in full where the line has room;
  // the interval's method ("confidence sequence") is always there.
  const sequential = rate.method === 'confidence-sequence' || rate.method === 'rogan-gladen'
  const markers = sequential ? [` ${SEQUENTIAL_POINT}`, ' at the stop', ''] : ['']
  // A judge-corrected rate is not the share of runs: the count is the judge's yes answers.
  const judged = rate.method === 'rogan-gladen' ? ' judged yes' : ''
  const numbers =
    score !== undefined
      ? scoreNumbers(score)
      : rate.n === 0
        ? [`: ${NO_ROLLOUT_COMPLETED}`]
        : markers.map(
            (marker) =>
              `${judged} in ${rate.successes}/${rate.n} rollouts, ${percent(rate.point)}${marker} ` +
              `[${percent(rate.low)}–${percent(rate.high)}] (${confidenceLevel(rate.confidence)} ${methodName(rate.method)})`,
          )
  // The label and the step's name as the verdict message shows them: on one line, no raw escape
  // sequence (reporters print the message as it is).
  const locus = entry.locus === null ? null : { index: entry.locus.index, name: showName(entry.locus.name) }
  const message = annotationMessage(
    entry.verdict,
    showName(entry.predicate),
    numbers,
    locus,
    entry.matcher === 'toMatchRateBaseline',
  )
  if (file === null) {
    await task.context.annotate(message, 'causal-replay')
    return
  }
  await task.context.annotate(message, 'causal-replay', {
    path: file,
    contentType: file.endsWith('.html') ? 'text/html' : 'application/json',
  })
}

/**
 * The annotation's numbers for a score gate, longest first as for a rate: ": mean 0.433 at the
 * sequential stop [0.204–0.695] (90% betting confidence sequence), claim ≥ 0.7", then with a
 * shorter marker, then none.
 */
function scoreNumbers(score: ScoreSummary): string[] {
  const side = `claim ${CLAIMS[score.claim].direction === 'atLeast' ? '≥' : '≤'} ${scoreNumber(score.threshold)}`
  const mean = score.mean
  if (mean === null) return [`: ${NO_ROLLOUT_COMPLETED}, ${side}`]
  return [` ${SEQUENTIAL_POINT}`, ' at the stop', ''].map(
    (marker) =>
      `: mean ${scoreNumber(mean.point)}${marker} [${scoreNumber(mean.low)}–${scoreNumber(mean.high)}] ` +
      `(${confidenceLevel(mean.confidence)} betting confidence sequence), ${side}`,
  )
}

// Vitest names the copy of an attachment after the annotation's message (which is ASCII: see
// `annotationMessage`), plus 46 bytes of hash and extension: a message of at
// most 180 UTF-8 bytes keeps that name below the 255-byte limit of common file systems, whatever
// labels, step and tool names it quotes; 120 characters keep it one line (the numbers alone take
// about 55, a baseline's locus label 40).
const ANNOTATION_CHARACTERS = 120
const ANNOTATION_BYTES = 180

function fitsAnnotation(text: string): boolean {
  return (
    Array.from(text).length <= ANNOTATION_CHARACTERS && Buffer.byteLength(text, 'utf8') <= ANNOTATION_BYTES
  )
}

/**
 * "fail: call transfer_funds in 2/2 rollouts, 100.0% [15.8%–100.0%] (95% Clopper–Pearson); causal
 * locus: step 2 (model#3)", within the annotation limits (`numbers` is " in 2/2 rollouts, …" or
 * ": no rollout completed", or such texts from the most said to the least). The numbers are never
 * cut (a cut interval reads as another number, in the message and in the attachment's file name): a
 * shorter text of them is taken first, then the predicate's label gives way, at its end, then the
 * step's name, then the locus.
 */
export function annotationMessage(
  verdict: string,
  label: string,
  numberTexts: string | readonly string[],
  step: { index: number; name: string } | null,
  /** A baseline gate's locus is one failing rollout's, not the cause of the change in rate. */
  baseline = false,
): string {
  // Vitest names the attachment's copy after this line: its typographic characters (an interval's
  // dash, a cut label's ellipsis, a score's ≥) and those of names would make a file name of them.
  const predicate = asciiText(label)
  const numbers = typeof numberTexts === 'string' ? asciiText(numberTexts) : numberTexts.map(asciiText)
  const locus = step === null ? null : { index: step.index, name: asciiText(step.name) }
  const locusLabel = baseline ? 'locus of one failing rollout' : 'causal locus'
  // What follows the numbers, from the most said to the least: the step's name goes, then the
  // label is shortened, then the locus goes.
  const tails =
    locus === null
      ? ['']
      : [
          `; ${locusLabel}: step ${locus.index} (${locus.name})`,
          `; ${locusLabel}: step ${locus.index}`,
          // A shorter label would drop what a baseline's locus must say: the locus goes instead.
          ...(baseline ? [] : [`; locus: step ${locus.index}`]),
          '',
        ]
  const texts = typeof numbers === 'string' ? [numbers] : numbers
  const characters = Array.from(predicate)
  for (const tail of tails) {
    for (let keep = characters.length; keep >= Math.min(8, characters.length); keep--) {
      const shown =
        keep === characters.length ? predicate : `${characters.slice(0, keep).join('').trimEnd()}...`
      for (const text of texts) {
        const candidate = `${verdict}: ${shown}${text}${tail}`
        if (fitsAnnotation(candidate)) return candidate
      }
    }
  }
  return shortenMiddle(`${verdict}: ${predicate}${texts.at(-1) ?? ''}${tails[0] as string}`)
}

/** `text`, or its start and end around an ellipsis, within the annotation limits (never splitting a character). */
function shortenMiddle(text: string): string {
  const characters = Array.from(text)
  const fits = (candidate: string) => Buffer.byteLength(candidate, 'utf8') <= ANNOTATION_BYTES
  if (characters.length <= ANNOTATION_CHARACTERS && fits(text)) return text
  for (let keep = Math.min(characters.length, ANNOTATION_CHARACTERS - 1); keep > 0; keep--) {
    const head = Math.ceil(keep / 2)
    const candidate = `${characters.slice(0, head).join('')}...${characters.slice(characters.length - (keep - head)).join('')}`
    if (fits(candidate)) return candidate
  }
  return '...'
}
