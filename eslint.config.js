// @ts-check
import js from '@eslint/js'
import boundaries from 'eslint-plugin-boundaries'
import tseslint from 'typescript-eslint'

/**
 * The layers of the library, bottom up (docs/ARCHITECTURE.md). A file may import its own layer and
 * any lower one, never a higher one: not by `import`, `import type`, `export … from` nor a dynamic
 * `import()`. Within a layer, folders may import each other. Each file of `src/` and `matchers/`
 * must be in a layer (`boundaries/no-unknown-files`), so a new folder is placed here first.
 */
/** @type {[layer: string, paths: string[]][]} */
const LAYERS = [
  [
    'layer 0',
    [
      'src/stats',
      'src/random',
      'src/files',
      'src/options',
      'src/errors.ts',
      'src/json.ts',
      'src/load-peer.ts',
    ],
  ],
  ['layer 1', ['src/agent', 'src/trajectory', 'src/dataset']],
  // The cassette of model calls: below the engine that consults it, above what it stores.
  ['layer 1 cassette', ['src/cassette']],
  ['layer 2', ['src/rollout']],
  ['layer 3', ['src/replay']],
  ['layer 4', ['src/attribute', 'src/adapters']],
  ['layer 5', ['src/verdict']],
  // One layer, ordered inside: html may import text, text may not import html.
  ['layer 6 text', ['src/text']],
  ['layer 6 html', ['src/html']],
  ['layer 7', ['src/check']],
  ['layer 8', ['src/vitest', 'src/cli', 'src/entries', 'src/index.ts']],
  ['matchers', ['matchers']],
]

// Layers are file categories rather than elements: an element is a folder, and the layers also
// hold single files (`src/errors.ts`, `src/json.ts`, `src/index.ts`).
const layerFiles = LAYERS.flatMap(([name, paths]) =>
  paths.map((path) => ({ category: name, pattern: path.endsWith('.ts') ? path : `${path}/**` })),
)

const layerPolicies = LAYERS.map(([name], index) => ({
  from: { file: { categories: name } },
  allow: { to: { file: { categories: { anyOf: LAYERS.slice(0, index + 1).map(([lower]) => lower) } } } },
}))

// The package's types declare an ES default export, but at run time the CommonJS module itself is the plugin.
const boundariesPlugin = /** @type {import('eslint').ESLint.Plugin} */ (/** @type {unknown} */ (boundaries))

const upwardImport =
  '{{from.file.path}} ({{from.file.categories}}) may not import {{to.file.path}} ({{to.file.categories}}): ' +
  'imports only go down the layers (docs/ARCHITECTURE.md).'

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.causal-replay/**',
      'test-results/**',
      // The documentation site's build output, VitePress's cache and the generated API reference.
      'docs/.vitepress/cache/**',
      'docs/.vitepress/dist/**',
      'docs/api/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Every rate matcher is async: a forgotten `await` makes a test pass without running it.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Imports only go down the layers. Import cycles, type-only ones included, are checked by
    // dependency-cruiser (.dependency-cruiser.cjs), because ESLint's cycle rules skip type-only imports.
    files: ['src/**/*.ts', 'matchers/**/*.ts'],
    plugins: { boundaries: boundariesPlugin },
    settings: {
      'boundaries/files': layerFiles,
      // Every TypeScript file is known, so that an import of a test or an example from src/ is an
      // unknown dependency rather than an ignored one.
      'boundaries/include': ['**/*.ts'],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      // Relative imports end in `.js` and name a `.ts` file: TypeScript's resolution finds it.
      'import/resolver': { typescript: { project: 'tsconfig.json' } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        { default: 'disallow', policies: layerPolicies, message: upwardImport },
      ],
      'boundaries/no-unknown-files': 'error',
      'boundaries/no-unknown-dependencies': 'error',
    },
  },
)
