#!/usr/bin/env sh
# The shell commands the documentation shows, in one place: its pages' `sh` blocks are generated
# from the regions of this file (scripts/readme-output.ts). Not meant to be run as a whole.

# #region demo
npm ci && npm run demo   # the support agent: a failing gate, its causal locus, an HTML report
npm test                 # the test suite (builds dist/ first)
npm run docs             # this documentation, served at http://localhost:5173
# #endregion

# #region install
npm install -D vitest-causal-replay vitest   # Node ≥ 20.19
# #endregion

# #region install-tarball
cd vitest-causal-replay && npm ci && npm run build && npm pack   # writes vitest-causal-replay-0.1.0.tgz
cd ../your-project && npm install -D ../vitest-causal-replay/vitest-causal-replay-0.1.0.tgz vitest
# #endregion

# #region esm
npm pkg set type=module
# #endregion

# #region langchain-peers
npm install --save-dev @langchain/core @langchain/langgraph
# #endregion

# #region cli
npx causal-replay report .causal-replay/support/rarely-refunds-wrongly-3a5966cc.json [-o out.html]
npx causal-replay show   .causal-replay/support/rarely-refunds-wrongly-3a5966cc.json   # the test output's table
npx causal-replay --help | --version
# #endregion
