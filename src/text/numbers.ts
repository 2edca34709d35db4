import type { IntervalMethod } from '../stats/estimate.js'

/**
 * A rate as a percentage: one decimal from 1% up ("23.0%"), two significant digits below ("0.30%",
 * "0.030%"), so small bounds keep their information. Exact 0 and 1 print as "0.0%" and "100.0%".
 */
export function percent(rate: number): string {
  const value = rate * 100
  if (value === 0 || Math.abs(value) >= 1) return `${value.toFixed(1)}%`
  return `${value.toPrecision(2)}%`
}

/** A signed percentage for differences: "+21.0%", "-3.5%", "+0.0%". */
export function signedPercent(rate: number): string {
  const text = percent(Math.abs(rate))
  return rate < 0 && text !== '0.0%' ? `-${text}` : `+${text}`
}

/** A probability with two decimals: "0.26". */
export function probability(value: number): string {
  return value.toFixed(2)
}

/** A signed effect, padded so columns of them align: "-0.74", " 0.00". */
export function effect(value: number): string {
  // -0.001 rounds to "-0.00"; an effect that rounds to zero prints unsigned.
  const text = value.toFixed(2)
  return (text === '-0.00' ? '0.00' : text).padStart(5)
}

/**
 * The upper end of an effect interval: as {@link effect}, except that a negative end that rounds to
 * zero keeps its sign ("-0.00"). A rescue decided by a sign test has its upper end just below 0, and
 * the row must not read as if its interval reached 0.
 */
export function effectUpperEnd(value: number): string {
  return value < 0 && value.toFixed(2) === '-0.00' ? '-0.00'.padStart(5) : effect(value)
}

/**
 * The lower end of a rescue (a negated effect interval's upper end) as a whole percentage: ">0%"
 * when it is positive but rounds to 0, so a significant rescue never reads as reaching 0%.
 */
export function rescueLowerEnd(rate: number): string {
  const value = Math.round(rate * 100)
  if (rate > 0 && value === 0) return '>0%'
  return `${value === 0 ? 0 : value}%`
}

/** A score in the scorer's units, to three decimals without trailing zeros: 0.8 → "0.8", 0.72349 → "0.723", 4 → "4". */
export function scoreNumber(value: number): string {
  const text = String(Number(value.toFixed(3)))
  return text === '-0' ? '0' : text
}

/** A confidence level as a percentage without trailing zeros: 0.95 → "95%", 0.975 → "97.5%". */
export function confidenceLevel(confidence: number): string {
  return `${Number((confidence * 100).toFixed(2))}%`
}

/**
 * A rate's interval with its level and method: "95% Clopper–Pearson CI 15.2%–32.5%"; a confidence
 * sequence reads "90% anytime-valid confidence sequence 14.3%–66.0%", since it is not a
 * fixed-sample CI: it holds at whatever rollout a sequential test stopped.
 */
export function rateIntervalText(interval: {
  readonly low: number
  readonly high: number
  readonly confidence: number
  readonly method: IntervalMethod
}): string {
  const range = `${percent(interval.low)}–${percent(interval.high)}`
  const level = confidenceLevel(interval.confidence)
  if (interval.method === 'confidence-sequence') return `${level} anytime-valid confidence sequence ${range}`
  if (interval.method === 'rogan-gladen') return `${level} ${methodName(interval.method)} ${range}`
  return `${level} ${methodName(interval.method)} CI ${range}`
}

/** An integer with thousands separators: 12000 → "12,000". */
export function count(value: number): string {
  return value.toLocaleString('en-US')
}

/** "1 rollout", "2 rollouts". */
export function plural(value: number, noun: string): string {
  return `${count(value)} ${noun}${value === 1 ? '' : 's'}`
}

const METHOD_NAMES: Record<IntervalMethod, string> = {
  wilson: 'Wilson',
  'clopper-pearson': 'Clopper–Pearson',
  newcombe: 'Newcombe',
  tango: 'Tango',
  bootstrap: 'bootstrap',
  clt: 'CLT',
  exact: 'exact',
  'confidence-sequence': 'confidence sequence',
  'student-t': 'Student t',
  'tango-corrected': 'Tango, continuity-corrected',
  'newcombe-corrected': 'Newcombe, continuity-corrected',
  'rogan-gladen': 'judge-corrected (Rogan–Gladen) confidence sequence',
}

/** How a message names an interval method: "Clopper–Pearson", "Wilson", "Newcombe". */
export function methodName(method: IntervalMethod): string {
  return METHOD_NAMES[method]
}
