import { defineConfig } from 'vitest/config';

/**
 * Unit tests that replace a module (`vi.mock`) for the code they test: they need a module registry of their own.
 * test/architecture.test.ts keeps this list complete.
 */
export const UNIT_TESTS_MOCKING_MODULES = ['src/files/atomic-file.test.ts', 'src/workflows/preflight.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    globalSetup: ['test/support/global-setup.ts'],
    hookTimeout: 30_000,
    // Integration tests spend most of their time waiting on the processes they start, on deadlines and on servers:
    // four files at a time keep two cores busy (two files at a time used one: 6 min 53 s for the suite; four: 4 min 12 s).
    maxWorkers: 4,
    // Test files share their worker's modules: a fresh registry for each of the 170 files cost a tenth of the suite's
    // CPU time (half of the unit tests'). Their state is their own (servers and temporary folders per file or test).
    isolate: false,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: UNIT_TESTS_MOCKING_MODULES } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'mocking', include: UNIT_TESTS_MOCKING_MODULES, isolate: true } },
    ],
  },
});
