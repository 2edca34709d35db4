import { describe, expect, it } from 'vitest'
import { calledTool } from '../../../src/index.js'
import { predicateLabel } from '../../../src/trajectory/predicate-label.js'

/** A predicate whose function name is `name`, as `const name = () => …` would give it. */
function named(name: string): () => boolean {
  const predicate = () => true
  Object.defineProperty(predicate, 'name', { value: name })
  return predicate
}

describe('predicateLabel', () => {
  // Each label follows "expected agent to rarely …", so it must read as a verb phrase.
  it.each([
    // third person -s → base form
    ['refundsWrongly', 'refund wrongly'],
    ['usesTool', 'use tool'],
    ['needsReview', 'need review'],
    ['leaksPII', 'leak pii'],
    ['passes', 'pass'],
    ['misses', 'miss'],
    ['triesTwice', 'try twice'],
    ['pushesBack', 'push back'],
    ['cachesStale', 'cache stale'],
    ['causesLoop', 'cause loop'],
    ['dies', 'die'],
    // already a base form
    ['refundWrongly', 'refund wrongly'],
    ['refund_wrongly', 'refund wrongly'],
    ['escalate', 'escalate'],
    // auxiliaries
    ['isRude', 'be rude'],
    ['is_rude', 'be rude'],
    ['isBad', 'be bad'],
    ['wasRude', 'be rude'],
    ['hasPII', 'have pii'],
    ['has_refund', 'have refund'],
    ['doesLoop', 'do loop'],
    ['hadError', 'have error'],
    // past tense -ed → base form
    ['bookedNonrefundable', 'book nonrefundable'],
    ['calledIssueRefund', 'call issue refund'],
    ['issuedRefund', 'issue refund'],
    ['issued_refund', 'issue refund'],
    ['escalatedTicket', 'escalate ticket'],
    ['stoppedEarly', 'stop early'],
    ['retriedTwice', 'retry twice'],
    ['judgedBad', 'judge bad'],
    ['refundedTwice', 'refund twice'],
    ['leakedSecrets', 'leak secrets'],
    ['passedOver', 'pass over'],
    ['causedLoop', 'cause loop'],
    ['solvedIt', 'solve it'],
    ['forcedRefund', 'force refund'],
    ['handledError', 'handle error'],
    ['requiredApproval', 'require approval'],
    ['sharedSecret', 'share secret'],
    ['invokedTool', 'invoke tool'],
    ['decidedEarly', 'decide early'],
    ['decidedRefund', 'decide refund'],
    ['namedWrong', 'name wrong'],
    ['describedIt', 'describe it'],
    ['computedWrong', 'compute wrong'],
    ['declinedOrder', 'decline order'],
    ['summarizedBadly', 'summarize badly'],
    ['exceededBudget', 'exceed budget'],
    ['neededReview', 'need review'],
    ['embeddedLink', 'embed link'],
    ['createdDuplicate', 'create duplicate'],
    ['addedItem', 'add item'],
    ['sentEmail', 'send email'],
    ['madeUpFacts', 'make up facts'],
    // words that only look like a verb form: kept
    ['processPayment', 'process payment'],
    ['accessDenied', 'access denied'],
    ['statusIsError', 'status is error'],
    ['busFull', 'bus full'],
    ['analysisWrong', 'analysis wrong'],
    ['biasShown', 'bias shown'],
    ['alwaysRefunds', 'always refunds'],
    ['unexpectedOutput', 'unexpected output'],
    ['speedLimited', 'speed limited'],
    ['embedLink', 'embed link'],
    ['shedLoad', 'shed load'],
    ['bad', 'bad'],
    ['its', 'its'],
    // only the first word changes
    ['refundsAndEscalates', 'refund and escalates'],
  ])('%s → "%s"', (name, label) => {
    expect(predicateLabel(named(name))).toBe(label)
  })

  it('reads a bound function as the function it binds', () => {
    function refundWrongly(): boolean {
      return true
    }
    function refundsWrongly(): boolean {
      return true
    }
    expect(refundWrongly.bind(null).name).toBe('bound refundWrongly')
    expect(predicateLabel(refundWrongly.bind(null))).toBe('refund wrongly')
    expect(predicateLabel(refundsWrongly.bind(null))).toBe('refund wrongly')
  })

  it('names a calledTool predicate by its tool, and an anonymous one as the predicate', () => {
    expect(predicateLabel(calledTool('issue_refund'))).toBe('call issue_refund')
    expect(predicateLabel(() => true)).toBe('satisfy the predicate')
    expect(predicateLabel(named('anonymous'))).toBe('satisfy the predicate')
    expect(predicateLabel(named('predicate'))).toBe('satisfy the predicate')
  })

  it('keeps a name that is not an identifier as written', () => {
    expect(predicateLabel(named('refunds wrongly!'))).toBe('refunds wrongly!')
  })
})
