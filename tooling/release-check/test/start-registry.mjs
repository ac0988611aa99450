// Starts Verdaccio on 127.0.0.1 with a port chosen by the system and its own storage, and prints
// `{"port":N}` on one line once it listens. Argument: the folder for its storage, users and config.
// Our packages (@smsv4/*, smsv4) are served only from the local storage; everything else is read
// through from the public registry (with a bound on each request) and kept in the storage.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runServer } from 'verdaccio';

const [home] = process.argv.slice(2);
if (home === undefined) throw new TypeError('usage: start-registry.mjs <folder>');
mkdirSync(join(home, 'storage'), { recursive: true });
writeFileSync(join(home, 'htpasswd'), '');
const ours = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' };
const configuration = {
  self_path: join(home, 'config.yaml'),
  storage: join(home, 'storage'),
  auth: { htpasswd: { file: join(home, 'htpasswd'), max_users: 10 } },
  uplinks: { npmjs: { url: process.env.UPSTREAM_REGISTRY ?? 'https://registry.npmjs.org/', timeout: '60s', max_fails: 5, fail_timeout: '2m' } },
  packages: { '@smsv4/*': ours, smsv4: ours, '@*/*': { access: '$all', proxy: 'npmjs' }, '**': { access: '$all', proxy: 'npmjs' } },
  web: { enable: false },
  log: { type: 'stdout', format: 'pretty', level: 'error' },
  max_body_size: '50mb',
};
const server = await runServer(configuration);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
