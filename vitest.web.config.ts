import { defineConfig } from 'vitest/config';

/** Browser journeys: the built app served by a real service, driven in Debian's chromium (`npm run test:web`). */
export default defineConfig({
  test: {
    include: ['test/web/**/*.journey.ts'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/web/build-app.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits as long as `visible` in test/web/harness.ts (20 s); vitest's default of 1 s
    // is shorter than a fresh page's first load on a busy 2-core CI machine.
    expect: { poll: { timeout: 20_000 } },
    reporters: ['default'],
  },
});
