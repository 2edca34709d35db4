import { formatVerdictMessage } from '../text/verdict-message.js'
import type { Artifact } from '../verdict/schema.js'

/** `causal-replay show`: the artifact as the test output printed it (the one terminal formatter). */
export function formatArtifact(artifact: Artifact): string {
  return formatVerdictMessage(artifact)
}
