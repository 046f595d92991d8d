// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/'] },
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
    // The domain core stays pure: no I/O, no framework.
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'fastify', 'kysely', '../db/*', '../http/*', '../modules/*', '../formats/*'] },
      ],
    },
  },
);
