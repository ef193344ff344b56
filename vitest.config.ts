import { defineConfig } from 'vitest/config';

/**
 * Unit tests that replace a module (`vi.mock`) for the code they test: they need a module registry of their own, so
 * they run with the integration tests. test/architecture.test.ts keeps this list complete.
 */
export const UNIT_TESTS_MOCKING_MODULES = ['src/files/atomic-file.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn the binary and an emulator each; two cores do not gain from more.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: UNIT_TESTS_MOCKING_MODULES,
          // Unit tests share each worker's modules: a fresh registry per file cost half their CPU time.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts', ...UNIT_TESTS_MOCKING_MODULES] } },
    ],
  },
});
