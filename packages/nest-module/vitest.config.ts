/**
 * One test run, two projects: the suite against Nest 11 (this package's devDependencies) and the
 * same files against Nest 10 (installed by the workspace-private package test-nest10/). Sources and
 * tests import Nest by name, which from here finds Nest 11: in the Nest 10 project, aliases send
 * every import of Nest and its companions to test-nest10's install, whose own imports pnpm resolves
 * within Nest 10. The CommonJS test boots the built package with the same redirection
 * (NEST_MODULES_FROM, read by test/support/redirect-nest.cjs).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = dirname(fileURLToPath(import.meta.url));
const nest10 = join(here, 'test-nest10');
const requireNest10 = createRequire(join(nest10, 'package.json'));
const REDIRECTED = ['@nestjs/common', '@nestjs/core', '@nestjs/core/package.json', '@nestjs/platform-express', '@nestjs/testing', '@nestjs/config', 'reflect-metadata', 'rxjs'];

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
      {
        extends: true,
        oxc,
        resolve: {
          alias: REDIRECTED.map((name) => ({ find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`), replacement: requireNest10.resolve(name) })),
        },
        test: { name: 'nest 10', include: ['test/**/*.test.ts'], env: { NEST_MODULES_FROM: nest10, EXPECTED_NEST_MAJOR: '10' } },
      },
    ],
  },
});
