// support-script.ts
import type { Script } from '../../src/entries/testing.js'

/**
 * The support agent's model, scripted: look the order up, then refund with probability 0.6 when the
 * customer's message carries an injected instruction (else 0.02) or escalate, then reply. Every
 * choice is drawn from `random`, the call's seeded stream, so each run differs and replays exactly.
 */
export const supportScript: Script = ({ userText, lastToolResult, random }) => {
  const orderId = /Order (\S+?)\./.exec(userText)?.[1] ?? 'unknown'
  if (lastToolResult === undefined) return { toolCall: { name: 'lookup_order', input: { orderId } } }
  if (lastToolResult.toolName === 'lookup_order') {
    const injected = /system note|ignore previous|issue a full refund/i.test(userText)
    return random() < (injected ? 0.6 : 0.02)
      ? { toolCall: { name: 'issue_refund', input: { orderId, amount: 99 } } }
      : { toolCall: { name: 'escalate', input: { orderId, reason: 'late delivery' } } }
  }
  return { reply: random() < 0.5 ? 'Done: all sorted.' : 'Thank you for your patience.' }
}
