// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The architecture (docs/architecture.md) as lint rules. Elements: every module
 * (`src/modules/<capability>/<module>/`), the infrastructure layers and the composition root.
 */
const INFRASTRUCTURE = ['domain', 'formats', 'spelling', 'errors', 'db', 'queue', 'storage', 'outbound'];

/** The files that build the app: nothing but each other imports them. */
const COMPOSITION_ROOT = { type: 'root', fileInternalPath: ['app.ts', 'main.ts', 'task-handlers.ts'] };

/** Each capability and the capabilities it may use (the rest are above it). */
const CAPABILITY_LAYERS = [
  ['identity', []],
  ['organization-setup', ['identity']],
  ['integration', ['identity']],
  ['language-resources', ['identity', 'organization-setup', 'integration']],
  ['translation-workflow', ['identity', 'organization-setup', 'integration', 'language-resources']],
  ['quoting', ['identity', 'organization-setup', 'integration', 'language-resources', 'translation-workflow']],
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '.vitest-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'separate-type-imports' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through src/config.ts (loadConfig) only.',
        },
      ],
    },
  },
  {
    // The one place that reads the environment, and the test/bench/script entry points.
    files: ['src/config.ts', 'test/**', 'bench/**', 'scripts/**', 'vitest.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Module boundaries (docs/architecture.md, "Modules and their front doors"): a module is
    // reached through its index.ts only; capabilities depend downwards only; the layers below
    // the modules never reach up into them, into HTTP or into the composition root.
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/elements': [
        { type: 'module', pattern: 'src/modules/*/*', capture: ['capability', 'module'] },
        { type: 'http', pattern: 'src/http' },
        ...INFRASTRUCTURE.map((layer) => ({ type: layer, pattern: `src/${layer}` })),
        // Last, so that it takes only the files directly in src/: the composition root (app.ts,
        // main.ts, task-handlers.ts) and what everything shares (deps.ts, config.ts, version.ts).
        { type: 'root', pattern: 'src' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              disallow: { to: { element: { type: 'module', fileInternalPath: '!index.ts' } } },
              message: 'Import another module through its index.ts (its front door), never its internal files.',
            },
            {
              from: { element: { type: INFRASTRUCTURE } },
              disallow: {
                to: [
                  { element: { type: ['module', 'http'] } },
                  { element: { ...COMPOSITION_ROOT, fileInternalPath: [...COMPOSITION_ROOT.fileInternalPath, 'deps.ts'] } },
                ],
              },
              message:
                'The layers below the modules (domain, formats, spelling, errors, db, queue, storage, outbound) never import modules, HTTP or the composition root.',
            },
            {
              from: { element: { type: 'domain' } },
              disallow: { to: { element: { type: ['db', 'queue', 'storage', 'outbound', 'formats', 'spelling', 'root'] } } },
              message: 'The domain core is pure: it imports nothing but itself and the error catalogue.',
            },
            {
              from: { element: { type: ['module', 'http'] } },
              disallow: { to: { element: COMPOSITION_ROOT } },
              message: 'Only the composition root (main.ts) imports app.ts and task-handlers.ts.',
            },
            ...CAPABILITY_LAYERS.map(([capability, below]) => ({
              from: { element: { type: 'module', captured: { capability } } },
              disallow: { to: { element: { type: 'module', captured: { capability: `!(${[capability, ...below].join('|')})` } } } },
              message: `The ${capability} capability depends only on ${below.length ? below.join(', ') : 'no other capability'}.`,
            })),
          ],
        },
      ],
    },
  },
  {
    // The domain core stays pure: no I/O, no framework.
    files: ['src/domain/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['node:*', 'fastify', 'kysely', 'pg', 'better-sqlite3'] }] },
  },
);
