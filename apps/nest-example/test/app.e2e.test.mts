/**
 * The built example application (`node dist/main.js`, CommonJS, compiled by tsc with decorator
 * metadata as Nest projects are) against the sandbox over loopback: a notification is sent, its
 * receipts come back to the webhook controller, and an inbound STOP is answered.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, type Sandbox, type SandboxServer } from '@smsv4/sandbox';
import { eventually as poll } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Polls until `check` gives a value (the testing kit's, with this suite's patience: the app runs in its own process). */
const eventually = <T,>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> => poll(check, timeoutMs, 25);

describe('the example application', () => {
  let sandbox: Sandbox;
  let server: SandboxServer;
  let child: ChildProcess;
  let output = '';
  let app = '';

  beforeAll(async () => {
    expect(existsSync(join(root, 'dist', 'main.js')), 'build the app first (turbo runs build before test)').toBe(true);
    sandbox = createSandbox({ timeScale: 100 });
    server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    const port = await freePort();
    app = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['dist/main.js'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', PORT: String(port), HOST: '127.0.0.1', SMS_BASE_URL: server.url, SMS_CALLBACK_URL: `${app}/sms/callbacks` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await eventually(() => (output.includes('Listening on') ? true : child.exitCode !== null ? Promise.reject(new Error(output)) : undefined));
  });

  afterAll(async () => {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await server?.close();
    await sandbox?.close();
  });

  it('logs where it receives callbacks and which methods take them', () => {
    expect(output).toContain('Receiving callbacks at /sms/callbacks: receipts → SmsEventsService.onReceipt; inbound messages → SmsEventsService.onInbound');
    expect(output).toContain(`Listening on ${app} (callbacks at ${app}/sms/callbacks)`);
  });

  it('sends a two-part notification and learns from the receipts that it was delivered', async () => {
    const response = await fetch(`${app}/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: '14155550100', text: 'Your parcel is on its way and will arrive tomorrow. '.repeat(4) }),
    });
    expect(response.status).toBe(202);
    const sent = (await response.json()) as { ticketId: string; segments: number };
    expect(sent.segments).toBe(2);
    const status = await eventually(async () => {
      const s = (await (await fetch(`${app}/notifications/${sent.ticketId}`)).json()) as { source: string; code: number; description?: string };
      return s.source === 'receipts' && s.code === 4 ? s : undefined;
    });
    expect(status).toEqual({ ticketId: sent.ticketId, code: 4, description: 'Message delivered', source: 'receipts' });
    const callbacks = sandbox.snapshot().callbacks.filter((c) => c.ticketId === sent.ticketId);
    expect(callbacks.map((c) => c.httpStatus)).toEqual([200, 200]);
  });

  it('refuses a notification without a valid number', async () => {
    const response = await fetch(`${app}/notifications`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: '+1 415', text: 'x' }) });
    expect(response.status).toBe(400);
  });

  it('answers an inbound STOP once and records it', async () => {
    const injected = sandbox.injectInbound({ from: '14155550123', to: '24273', text: 'STOP', url: `${app}/sms/callbacks`, format: 'json' });
    const inbound = await eventually(async () => {
      const list = (await (await fetch(`${app}/notifications/inbound`)).json()) as Array<{ from: string; text: string; ticketIds: string[] }>;
      return list.find((m) => m.from === '14155550123');
    });
    expect(inbound).toEqual({ from: '14155550123', to: '24273', text: 'STOP', ticketIds: injected.ticketIds });
    const replies = sandbox.snapshot().messages.filter((m) => m.destination === '14155550123');
    expect(replies).toHaveLength(1);
  });
});
