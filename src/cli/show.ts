import type { Artifact } from '../verdict/schema.js'

// TEMPORARY until src/format exists: replaced by a call to the one terminal formatter.
export function formatArtifact(artifact: Artifact): string {
  return JSON.stringify(artifact.verdict.kind)
}
