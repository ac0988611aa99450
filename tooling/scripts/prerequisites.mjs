// The set-up step of the test command: finds the system tools the suites need (Redis, Chromium,
// OpenSSL), installs the missing ones with apt-get where it can (root on Debian or Ubuntu), and
// otherwise stops before any test runs with one message naming what is missing and how to
// install it. Exit 0 when everything is there, 1 otherwise.
//
//   SMSV4_CHROMIUM=/path/to/chromium   the browser to use (default: `chromium` on the PATH)
//   SMSV4_NO_INSTALL=1                 never install, only check
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** What the suites run, the Debian package that brings it, and the Homebrew command for macOS. */
export const TOOLS = [
  { name: 'redis-server', debian: 'redis-server', brew: 'brew install redis', usedBy: 'the Redis stores, the send queue' },
  { name: 'redis-cli', debian: 'redis-server', brew: 'brew install redis', usedBy: 'the Redis Cluster tests' },
  { name: 'chromium', debian: 'chromium', brew: 'brew install --cask chromium', usedBy: 'the browser tests', env: 'SMSV4_CHROMIUM' },
  { name: 'openssl', debian: 'openssl', brew: 'brew install openssl', usedBy: 'the mutual-TLS certificates' },
];

const executable = (file) => {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first executable of that name on the PATH, or undefined. */
export function which(name, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (dir !== '' && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** Where each tool is, or undefined for the missing ones. */
export function locate(env = process.env) {
  return TOOLS.map((tool) => {
    const override = tool.env === undefined ? undefined : env[tool.env];
    const found = override !== undefined && override !== '' ? (executable(override) ? override : undefined) : which(tool.name, env.PATH);
    return { ...tool, found };
  });
}

/** The message printed when tools are missing. */
export function missingMessage(missing) {
  const names = missing.map((t) => t.name);
  const debian = [...new Set(missing.map((t) => t.debian))];
  const brew = [...new Set(missing.map((t) => t.brew))];
  return [
    `The tests need ${names.join(', ')}, not found on the PATH (used by ${missing.map((t) => t.usedBy).join('; ')}).`,
    `Install ${missing.length === 1 ? 'it' : 'them'}, then run the test command again:`,
    `  Debian, Ubuntu: sudo apt-get install -y ${debian.join(' ')}`,
    `  macOS:          ${brew.join(' && ')}${missing.some((t) => t.name === 'chromium') ? ' (then SMSV4_CHROMIUM=/Applications/Chromium.app/Contents/MacOS/Chromium)' : ''}`,
    ...(missing.some((t) => t.env !== undefined) ? [`  A browser elsewhere: set ${missing.filter((t) => t.env).map((t) => t.env).join(', ')} to its path.`] : []),
  ].join('\n');
}

function main() {
  let tools = locate();
  let missing = tools.filter((t) => t.found === undefined);
  const canInstall = process.env.SMSV4_NO_INSTALL !== '1' && process.getuid?.() === 0 && which('apt-get') !== undefined;
  if (missing.length > 0 && canInstall) {
    const packages = [...new Set(missing.map((t) => t.debian))];
    console.log(`prerequisites: installing ${packages.join(' ')} with apt-get`);
    const quiet = { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 };
    const update = spawnSync('apt-get', ['update', '-qq'], quiet);
    const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', '-qq', ...packages], quiet) : update;
    if (install.status !== 0) console.error(`prerequisites: apt-get ${update.status === 0 ? 'install' : 'update'} failed${install.signal ? ` (${install.signal})` : ''}`);
    tools = locate();
    missing = tools.filter((t) => t.found === undefined);
  }
  if (missing.length > 0) {
    console.error(missingMessage(missing));
    process.exitCode = 1;
    return;
  }
  console.log(`prerequisites: ${tools.map((t) => t.name).join(', ')} found`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
