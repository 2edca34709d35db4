// Import cycles in src/ and matchers/, and the one-way edges inside a layer, run by `npm run lint`.
// Type-only imports count: a cycle of types still ties two modules together, and ESLint's cycle
// rules skip them. The layer order itself is checked by eslint-plugin-boundaries in
// eslint.config.js (see docs/ARCHITECTURE.md).
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
    {
      name: 'attribute-not-adapters',
      severity: 'error',
      comment:
        'attribute/ and adapters/ share a layer, one way: adapters build on attribution (their context ' +
        'codecs), and attribution is handed the codecs by the layer above instead of importing them.',
      from: { path: '^src/attribute/' },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'arms-engine-not-its-clients',
      severity: 'error',
      comment:
        'The paired-arms engine (attribute/arms/) runs under contrastive and context attribution and ' +
        'owns the options it reads (arms/arm-options.ts); it imports none of its clients.',
      from: { path: '^src/attribute/arms/' },
      to: { path: '^src/attribute/(?!arms/)[^/]+/' },
    },
  ],
  options: {
    // Keep `import type` edges, which TypeScript erases before dependency-cruiser would see them.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
}
