import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.base],
    rules: {
      // Terminal output belongs to src/output (data to stdout, messages to stderr, --json respected).
      'no-console': 'error',
      // Only the entry point decides the exit code.
      'no-restricted-properties': ['error', { object: 'process', property: 'exit', message: 'Throw an EsignError; src/main.ts maps it to an exit code.' }],
      'no-debugger': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/main.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Scripts, benchmarks and tests are their own entry points and talk to the terminal directly.
    files: ['scripts/**', 'bench/**', 'test/**', '**/*.test.ts'],
    rules: { 'no-console': 'off', 'no-restricted-properties': 'off' },
  },
);
