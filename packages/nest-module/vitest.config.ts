/**
 * One test run, three projects: the suite against Nest 11 (this package's devDependencies) and the
 * same files against Nest 10 and Nest 12 (installed by the workspace-private packages test-nest10/
 * and test-nest12/). Sources and tests import Nest by name, which from here finds Nest 11: in the
 * Nest 10 and 12 projects, aliases send every import of Nest and its companions to that package's
 * install, whose own imports pnpm resolves within the same major. The CommonJS test boots the built
 * package with the same redirection (NEST_MODULES_FROM, read by test/support/redirect-nest.cjs).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = dirname(fileURLToPath(import.meta.url));
const REDIRECTED = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/core/package.json',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  '@nestjs/testing',
  '@nestjs/config',
  'reflect-metadata',
  'rxjs',
];

/** The project of another Nest major: the same tests, Nest and its companions taken from `test-nest<major>/`. */
function otherMajor(major: string) {
  const from = join(here, `test-nest${major}`);
  const requireFrom = createRequire(join(from, 'package.json'));
  return {
    extends: true,
    oxc,
    resolve: {
      alias: REDIRECTED.map((name) => ({ find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`), replacement: requireFrom.resolve(name) })),
    },
    test: { name: `nest ${major}`, include: ['test/**/*.test.ts'], env: { NEST_MODULES_FROM: from, EXPECTED_NEST_MAJOR: major } },
  } as const;
}

// Legacy (experimental) decorators as Nest needs them, and no decorator metadata: like the tsup
// build, so the tests prove that explicit @Inject tokens are all the injection needs.
const oxc = { decorator: { legacy: true, emitDecoratorMetadata: false } };

export default defineConfig({
  test: {
    // Test files run one after another in worker threads that keep the modules they imported, instead
    // of importing the packages again in a fresh process for each file.
    pool: 'threads',
    isolate: false,
    setupFiles: ['@smsv4/testing/vitest'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, oxc, test: { name: 'nest 11', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      otherMajor('10'),
      otherMajor('12'),
    ],
  },
});
