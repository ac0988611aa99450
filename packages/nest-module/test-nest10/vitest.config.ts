/**
 * The test suite of @smsv4/nest-module (../test) against Nest 10. Sources and tests import Nest by
 * name, which from ../src would find the package's own Nest 11: the aliases send every import of
 * Nest (and its companions) to this package's Nest 10 install, whose internal imports pnpm resolves
 * within Nest 10. The CommonJS test boots the built package with the same redirection
 * (NEST_MODULES_FROM, read by ../test/support/redirect-nest.cjs).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = dirname(fileURLToPath(import.meta.url));
const requireHere = createRequire(join(here, 'package.json'));
const REDIRECTED = ['@nestjs/common', '@nestjs/core', '@nestjs/platform-express', '@nestjs/testing', '@nestjs/config', 'reflect-metadata', 'rxjs'];

export default defineConfig({
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: false } },
  resolve: {
    alias: REDIRECTED.map((name) => ({ find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`), replacement: requireHere.resolve(name) })),
  },
  test: {
    dir: join(here, '..', 'test'),
    include: ['**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: join(here, 'test-results.json') }]],
    env: { NEST_MODULES_FROM: here, EXPECTED_NEST_MAJOR: '10' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
