// Import cycles in src/ and matchers/, run by `npm run lint`. Type-only imports count: a cycle of
// types still ties two modules together, and ESLint's cycle rules skip them. The layer order
// itself is checked by eslint-plugin-boundaries in eslint.config.js (see docs/ARCHITECTURE.md).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Imports only go down the layers, and within a folder they form no cycle either.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Keep `import type` edges, which TypeScript erases before dependency-cruiser would see them.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
}
