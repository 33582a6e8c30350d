import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['test/helpers/fast-check-setup.ts'],
    globalSetup: ['test/helpers/scratch-tmpdir.ts'],
  },
});
