// Runs the built command (`dist/main.js`) as users do: reads what it prints, runs the printed curl
// commands with a real shell, and stops it with a signal.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SMS_ERRORS } from '@smsv4/core';
import { DEFAULT_ACCOUNTS } from '@smsv4/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_PLACEHOLDER } from '../src/banner.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const exec = promisify(execFile);

/** The environment without SMSV4_* variables, so the developer's own settings do not leak in. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('SMSV4_')) env[name] = value;
  return { ...env, ...extra };
}

interface Started {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, [MAIN, ...args], { env: cleanEnv(env) });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, output: () => out, exited };
}

async function waitForOutput(started: Started, text: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!started.output().includes(text)) {
    if (Date.now() > deadline || started.child.exitCode !== null) throw new Error(`did not print ${JSON.stringify(text)}; printed:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return started.output();
}

/** The line after the one that starts with `heading`, without its indentation. */
function lineAfter(output: string, heading: string): string {
  const lines = output.split('\n');
  const at = lines.findIndex((line) => line.startsWith(heading));
  expect(at, `a line starting with ${heading}`).toBeGreaterThanOrEqual(0);
  return (lines[at + 1] ?? '').trim();
}

describe('dist/main.js', () => {
  let app: Started;
  let output = '';

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the app first (pnpm --filter @smsv4/sandbox-app build)`);
    app = start(['--port', '0', '--time-scale', '60']);
    output = await waitForOutput(app, 'Ctrl+C stops the sandbox.');
  });

  afterAll(async () => {
    if (app.child.exitCode === null) {
      app.child.kill('SIGKILL');
      await app.exited;
    }
  });

  it('prints the API and dashboard URLs and the default credentials', async () => {
    const api = /^ {2}API +(http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)?.[1];
    const dashboard = /^ {2}Dashboard +(\S+)$/m.exec(output)?.[1];
    expect(api).toBeDefined();
    // An admin token made at start: in the dashboard link, and required by the admin API.
    const token = /^ {2}Admin API +Authorization: Bearer ([A-Za-z0-9_-]{32})$/m.exec(output)?.[1];
    expect(dashboard).toBe(`${api}/__sandbox/#token=${token}`);
    expect((await fetch(`${api}/__sandbox/api/state`)).status).toBe(401);
    expect((await fetch(`${api}/__sandbox/api/state`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    for (const account of DEFAULT_ACCOUNTS) expect(output).toContain(`${account.accountId} : ${account.password}`);
    const page = await fetch(dashboard ?? '');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<title>smsv4 sandbox</title>');
  });

  it('prints a send command that works verbatim in a shell, and a status command for its ticket', async () => {
    const send = lineAfter(output, 'Send a message (JSON):');
    expect(send.startsWith('curl ')).toBe(true);
    const sent = await exec('sh', ['-c', send]);
    expect(sent.stdout).toMatch(/^HTTP\/1\.1 202 /);
    const location = /^location: (\S+)\r?$/im.exec(sent.stdout)?.[1];
    expect(location).toBeDefined();
    const ticketId = location?.split('/').pop() ?? '';
    expect(ticketId).toMatch(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){3}$/);

    const status = lineAfter(output, 'Ask for its status');
    expect(status).toContain(`/sms/v4/mt/${TICKET_PLACEHOLDER}/status`);
    const asked = await exec('sh', ['-c', status.replace(TICKET_PLACEHOLDER, ticketId)]);
    expect(asked.stdout).toMatch(/^HTTP\/1\.1 200 /);
    expect(asked.stdout).toMatch(/content-type: application\/xml/i);
    expect(asked.stdout).toContain(`ticketId="${ticketId}"`);
    expect(asked.stdout).toContain('<mtStatus');

    // Verbatim, the placeholder is an unknown ticket: the service's own "not found" answer.
    const placeholder = await exec('sh', ['-c', status]);
    expect(placeholder.stdout).toMatch(new RegExp(`^HTTP/1\\.1 ${SMS_ERRORS['711'].httpStatus} `));
    expect(placeholder.stdout).toContain(`code="${SMS_ERRORS['711'].code}"`);
  });

  it('stops cleanly on SIGTERM', async () => {
    app.child.kill('SIGTERM');
    const { code } = await app.exited;
    expect(code).toBe(0);
    expect(app.output()).toContain('SIGTERM received, stopping the sandbox…');
    expect(app.output()).toContain('Stopped.');
  });

  it('stops cleanly on SIGINT', async () => {
    const other = start(['--port', '0']);
    await waitForOutput(other, 'Ctrl+C stops the sandbox.');
    other.child.kill('SIGINT');
    expect((await other.exited).code).toBe(0);
  });

  it('prints the help and exits 0', async () => {
    const { stdout } = await exec(process.execPath, [MAIN, '--help'], { env: cleanEnv() });
    expect(stdout).toMatch(/^Usage: smsv4-sandbox \[options\]/);
    expect(stdout).toContain('SMSV4_TIME_SCALE');
  });

  it('exits 2 with a clear message on bad flags, environment and files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'smsv4-app-'));
    const duplicates = join(dir, 'duplicates.json');
    await writeFile(duplicates, JSON.stringify([{ accountId: 'twin', password: 'a' }, { accountId: 'twin', password: 'b' }]));
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--port', 'eighty'], {}, /--port must be a port number from 0 to 65535, not "eighty"/],
      [['--verbose'], {}, /Unknown option '--verbose'/],
      [[], { SMSV4_TIME_SCALE: '-2' }, /SMSV4_TIME_SCALE must be a positive number, not "-2"/],
      [['--accounts', '/nonexistent/accounts.json'], {}, /cannot read the accounts file \/nonexistent\/accounts\.json/],
      [['--operators', MAIN], {}, /the operators file .* is not JSON/],
      [['--accounts', duplicates], {}, /invalid settings \(accounts file .*duplicates\.json\): accountId "twin" appears twice/],
    ];
    for (const [args, env, message] of cases) {
      const failed = await exec(process.execPath, [MAIN, ...args], { env: cleanEnv(env) }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code, args.join(' ')).toBe(2);
      expect(failed?.stderr).toMatch(/^smsv4-sandbox: /);
      expect(failed?.stderr).toMatch(message);
    }
    await rm(dir, { recursive: true, force: true });
  });
});
