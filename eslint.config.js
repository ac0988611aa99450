// One ESLint run for the whole workspace (`pnpm lint`, and a task of `pnpm test`): each package's own
// configuration, applied to that package's folder. apps/nest-example is linted on its own, as the
// standalone project its README says to copy.
import { existsSync } from 'node:fs';

const folders = [
  'packages/cli',
  'packages/core',
  'packages/express-webhooks',
  'packages/fastify-webhooks',
  'packages/fetch-webhooks',
  'packages/nest-module',
  'packages/queue',
  'packages/sandbox',
  'packages/testing',
  'packages/transport-fetch',
  'apps/docs',
  'apps/sandbox',
  'tooling/bench',
  'tooling/dependency-rules',
  'tooling/release-check',
  'tooling/scripts',
];

const missing = folders.filter((folder) => !existsSync(new URL(`./${folder}/eslint.config.js`, import.meta.url)));
if (missing.length > 0) throw new Error(`no eslint.config.js in ${missing.join(', ')}`);

const perFolder = await Promise.all(
  folders.map(async (folder) => {
    const { default: config } = await import(`./${folder}/eslint.config.js`);
    return config.map((entry) => ({ ...entry, basePath: folder }));
  }),
);

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.turbo/**', 'apps/nest-example/**', '**/test-nest*/**', '*.config.*'] },
  ...perFolder.flat(),
];
