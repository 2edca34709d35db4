import { formatVerdictMessage } from '../text/verdict-message.js'
import type { Artifact } from '../verdict/schema.js'

/**
 * `causal-replay show`: the artifact as the test output printed it (the one terminal formatter),
 * with every step of the attribution table: the test message folds unevaluated steps away, and
 * this is where to see them.
 */
export function formatArtifact(artifact: Artifact): string {
  return formatVerdictMessage(artifact, { steps: 'all' })
}
