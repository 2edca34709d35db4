import { loadPeer } from '../../load-peer.js'

// Evaluated before any other module of this adapter (index.ts imports it first): without `ai`,
// importing `vitest-causal-replay/ai-sdk` fails here with a message that says what to install.
// The adapter itself needs only `ai`'s types at run time; the import is the check.
await loadPeer({ packageName: 'ai', range: '^6.0.0', neededBy: 'vitest-causal-replay/ai-sdk' })
