// Starts Verdaccio on 127.0.0.1 with a port chosen by the system and its own storage, and prints
// `{"port":N}` on one line once it listens. Arguments: the folder for its storage, users and config;
// optionally a folder of the machine where the packages read from the public registry are kept
// between runs. Our packages (@smsv4/*, smsv4) are served only from the fresh local storage, never
// from that folder; everything else is read through from the public registry (each request bounded)
// and kept a week, so that a second run on a machine reads nothing from the network.
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runServer } from 'verdaccio';

const [home, keep] = process.argv.slice(2);
if (home === undefined) throw new TypeError('usage: start-registry.mjs <folder> [kept-packages-folder]');
const storage = join(home, 'storage');
const ours = (name) => name === 'smsv4' || name === '@smsv4' || name.startsWith('.');
mkdirSync(storage, { recursive: true });
if (keep !== undefined && existsSync(keep)) {
  for (const name of readdirSync(keep)) if (!ours(name)) cpSync(join(keep, name), join(storage, name), { recursive: true });
}
writeFileSync(join(home, 'htpasswd'), '');
const local = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' };
const configuration = {
  self_path: join(home, 'config.yaml'),
  storage: join(home, 'storage'),
  auth: { htpasswd: { file: join(home, 'htpasswd'), max_users: 10 } },
  uplinks: { npmjs: { url: process.env.UPSTREAM_REGISTRY ?? 'https://registry.npmjs.org/', timeout: '60s', maxage: '7d', max_fails: 50, fail_timeout: '10s', agent_options: { keepAlive: true, maxSockets: 16, maxFreeSockets: 8 } } },
  packages: { '@smsv4/*': local, smsv4: local, '@*/*': { access: '$all', proxy: 'npmjs' }, '**': { access: '$all', proxy: 'npmjs' } },
  web: { enable: false },
  // Tokens signed as JWTs: checked by their signature. The default (legacy) tokens carry the password,
  // verified with bcrypt on every request (0.2 to 0.9 s of processor time each).
  security: { api: { legacy: false, jwt: { sign: { expiresIn: '1d' } } }, web: { sign: { expiresIn: '1h' } } },
  // Its errors (an uplink that failed) go to standard output, where the test keeps the last lines.
  log: { type: 'stdout', format: 'pretty', level: process.env.SMSV4_REGISTRY_LOG_LEVEL ?? 'warn' },
  max_body_size: '50mb',
};
const server = await runServer(configuration);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
/** Keeps the public packages read in this run for the next one (replaced whole, never shared while written). */
function keepPublicPackages() {
  if (keep === undefined) return;
  const next = `${keep}.${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  for (const name of readdirSync(storage)) if (!ours(name)) cpSync(join(storage, name), join(next, name), { recursive: true });
  rmSync(keep, { recursive: true, force: true });
  renameSync(next, keep);
}

process.on('SIGTERM', () => {
  server.close();
  try {
    keepPublicPackages();
  } finally {
    process.exit(0);
  }
});
