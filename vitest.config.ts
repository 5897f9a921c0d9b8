import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    // A fresh app (PGlite, every migration) takes seconds at rest and can take a minute on a busy 2-core machine.
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
