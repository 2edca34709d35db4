import { describe, expect, it } from 'vitest'
import { calledTool } from '../../../src/index.js'
import { predicateLabel } from '../../../src/verdict/label.js'

describe('predicateLabel', () => {
  it('reads a function name as words', () => {
    const refundWrongly = () => true
    const is_polite = () => true
    const leaksPII = () => true
    expect(predicateLabel(refundWrongly)).toBe('refund wrongly')
    expect(predicateLabel(is_polite)).toBe('is polite')
    expect(predicateLabel(leaksPII)).toBe('leaks pii')
    expect(predicateLabel(calledTool('issue_refund'))).toBe('call issue_refund')
    expect(predicateLabel(() => true)).toBe('satisfy the predicate')
  })
})
