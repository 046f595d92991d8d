import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test file gets its own process and its own database (see test/harness.ts).
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
