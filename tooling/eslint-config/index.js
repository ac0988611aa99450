// Shared flat ESLint configuration for every package of the monorepo.
import tseslint from 'typescript-eslint';

const ignores = { ignores: ['dist/**', 'coverage/**', 'node_modules/**', '*.config.*'] };

/** Rules every package follows. */
export const base = tseslint.config(ignores, ...tseslint.configs.recommended, {
  files: ['**/*.ts'],
  rules: {
    '@typescript-eslint/consistent-type-imports': 'error',
    '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    'no-restricted-syntax': [
      'error',
      { selector: 'ExportAllDeclaration', message: 'Export names explicitly from src/index.ts.' },
    ],
  },
});

/**
 * Runtime-neutral packages (`@smsv4/core`): no Node built-ins, no Buffer, no process, no I/O.
 * Tests may use Node (they run under vitest on Node), so the restriction applies to sources only.
 */
export const runtimeNeutral = tseslint.config(...base, {
  files: ['src/**/*.ts'],
  ignores: ['src/**/*.test.ts', 'src/**/*.test-d.ts', 'src/**/*.bench.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: ['fs', 'path', 'http', 'https', 'net', 'os', 'crypto', 'buffer', 'stream', 'util', 'child_process', 'worker_threads'].map((name) => ({
          name,
          message: 'core is runtime-neutral: no Node built-ins.',
        })),
        patterns: [{ group: ['node:*'], message: 'core is runtime-neutral: no Node built-ins.' }],
      },
    ],
    'no-restricted-globals': [
      'error',
      { name: 'Buffer', message: 'core is runtime-neutral: use Uint8Array.' },
      { name: 'process', message: 'core is runtime-neutral.' },
      { name: 'require', message: 'core is ESM and runtime-neutral.' },
      { name: 'fetch', message: 'core is sans-I/O: adapters do the I/O.' },
    ],
  },
});
