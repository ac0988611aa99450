// send, status, lookup and invoke end to end against `smsv4 sandbox` run as a subprocess: the whole
// round trip, receipts to a local receiver included, each CLI call itself a subprocess.
import { DELIVERY_STATES, INVOKE_INVALID, MT_INVALID, SMS_ERRORS } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreFixture } from './fixtures.js';
import { smsv4, startReceiver, startSandbox, type Receiver, type SandboxProcess } from './helpers.js';

let sandbox: SandboxProcess;
let receiver: Receiver;

beforeAll(async () => {
  [sandbox, receiver] = await Promise.all([startSandbox(['--port', '0', '--time-scale', '20']), startReceiver()]);
});

afterAll(async () => {
  await receiver?.close();
  if (sandbox !== undefined) {
    const { code, output } = await sandbox.stop();
    expect(code).toBe(0);
    expect(output).toContain('SIGTERM received, stopping the sandbox');
    expect(output).toContain('Stopped.');
  }
});

const api = (args: readonly string[], env: Readonly<Record<string, string>> = {}) => smsv4([...args, '--base-url', sandbox.url], { env });

describe('the sandbox round trip', () => {
  it('sends with a receipt URL, waits for the final status, receives the receipt and validates it', async () => {
    const sent = await api(['send', '--to', '14155550100', '--text', 'Round trip', '--receipt-url', `${receiver.url}/receipts`, '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const accepted = JSON.parse(sent.stdout) as { ok: boolean; ticketId: string; location: string; httpStatus: number };
    expect(accepted).toMatchObject({ ok: true, httpStatus: 202 });
    expect(accepted.location.endsWith(`/sms/v4/mt/${accepted.ticketId}`)).toBe(true);

    const status = await api(['status', accepted.ticketId, '--wait', '--interval', '100', '--json']);
    expect(status.code, status.stderr).toBe(0);
    const final = JSON.parse(status.stdout) as { final: boolean; status: { ticketId: string; code: number; description: string } };
    expect(final.final).toBe(true);
    expect(final.status).toMatchObject({ ticketId: accepted.ticketId, code: 4, description: DELIVERY_STATES[4]?.description });

    const [receipt] = await receiver.waitFor(1);
    expect(receipt?.url).toBe('/receipts');
    expect(receipt?.headers['x-api-version']).toBe('4');
    const validated = await smsv4(['validate', '-', '--json'], { input: receipt?.body });
    expect(validated.code).toBe(0);
    expect(JSON.parse(validated.stdout).results[0]).toMatchObject({ resource: 'delivery-receipt', format: 'json', valid: true });
    expect(receipt?.body).toContain(accepted.ticketId);
  });

  it('--log writes one JSON line per call to standard error, without the password, the number or the text', async () => {
    const sent = await api(['send', '--to', '14155550177', '--text', 'one-time code 9931', '--log', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const { ticketId } = JSON.parse(sent.stdout) as { ticketId: string };
    const lines = sent.stderr.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([expect.objectContaining({ level: 'info', msg: `send accepted as ${ticketId}`, operation: 'send', outcome: 'accepted', ticketId, httpStatus: 202 })]);
    expect(typeof lines[0]?.time).toBe('string');
    for (const secret of ['14155550177', 'one-time code', 'sandbox-password']) expect(sent.stderr).not.toContain(secret);
  });

  it('prints a human status with every part of a multipart message', async () => {
    const sent = await api(['send', '--to', '447700900123', '--text', 'x'.repeat(400), '--mlc', 'segment', '--format', 'xml', '--wait', '--interval', '100']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/Accepted: ticket [A-Z0-9-]+/);
    expect(sent.stdout).toMatch(/Status\s+4 Message delivered \(final, delivered\)/);
    expect(sent.stdout).toMatch(/Parts\s+3/);
    expect(sent.stdout).toMatch(/\n\s+3 {2}4 Message delivered/);
  });

  it('sends an MT request file of the core fixtures (XML) as it is', async () => {
    const sent = await api(['send', '--file', coreFixture('mt-request/valid/xml/with-source-long-code.xml')]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain('Accepted: ticket');
  });
});

describe('failures as the service answers them', () => {
  it('refuses an invalid request before it leaves, with the exact 540 (exit 1)', async () => {
    const run = await api(['send', '--to', '+14155550100', '--text', 'Hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`send: refused before it left: 540 ${MT_INVALID.destinationAddress}`);
    const file = await api(['send', '--file', coreFixture('mt-request/malformed/two-messages.xml')]);
    expect(file.code).toBe(1);
    expect(file.stderr).toContain(`540 ${MT_INVALID.invalidXml}`);
  });

  it('reports the service\'s error record: credentials from the environment, 432, 711, 345', async () => {
    const blocked = await api(['send', '--to', '14155550100', '--text', 'Hi', '--json'], { SMSV4_ACCOUNT_ID: 'blocked', SMSV4_PASSWORD: 'blocked-password' });
    expect(blocked.code).toBe(1);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ ok: false, error: { kind: 'api-error', code: '432', httpStatus: SMS_ERRORS['432'].httpStatus, reachedService: 'yes' } });
    const unknown = await api(['status', 'AAAAA-BBBBB-CCCCC-DDDDD']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`status: api-error: 711 ${SMS_ERRORS['711'].description} (HTTP 404)`);
    const abroad = await api(['lookup', '33612345678']);
    expect(abroad.code).toBe(1);
    expect(abroad.stderr).toContain('345');
    const wrong = await api(['lookup', '14155550100', '--account-id', 'sandbox', '--password', 'nope']);
    expect(wrong.stderr).toContain('420');
  });

  it('answers a 1010 fault of the sandbox with the retry guidance', async () => {
    const armed = await fetch(`${sandbox.url}/__sandbox/api/faults`, {
      method: 'POST',
      headers: sandbox.admin(),
      body: JSON.stringify({ operation: 'send', kind: '1010', count: 1 }),
    });
    expect(armed.status).toBe(204);
    const run = await api(['send', '--to', '14155550100', '--text', 'Hi', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatchObject({ kind: 'api-error', code: '1010', retryable: true });
  });

  it('says so when nothing listens (exit 1), and refuses malformed arguments (exit 2)', async () => {
    const closed = await smsv4(['lookup', '14155550100', '--base-url', 'http://127.0.0.1:9', '--timeout', '2000']);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain('lookup: network');
    expect((await api(['status', 'not a ticket'])).code).toBe(2);
    expect((await api(['lookup', '+14155550100'])).code).toBe(2);
    expect((await api(['send', '--text', 'no destination'])).code).toBe(2);
    const noCredentials = await smsv4(['lookup', '14155550100', '--base-url', 'https://smsc.example.com']);
    expect(noCredentials.code).toBe(2);
    expect(noCredentials.stderr).toContain('needs credentials');
  });
});

describe('credentials', () => {
  it('takes the password from standard input, warns when it is on the command line, never echoes a URL\'s userinfo', async () => {
    const piped = await smsv4(['lookup', '14155550100', '--account-id', 'sandbox', '--password-stdin', '--base-url', sandbox.url], { input: 'sandbox-password\n' });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).not.toContain('warning');
    const argv = await api(['lookup', '14155550100', '--account-id', 'sandbox', '--password', 'sandbox-password']);
    expect(argv.code, argv.stderr).toBe(0);
    expect(argv.stderr).toContain('smsv4: warning: --password on the command line is visible to other users of this machine (ps, shell history)');
    const userinfo = await smsv4(['lookup', '14155550100', '--base-url', 'https://acme:hunter2@smsc.example.com']);
    expect(userinfo.code).toBe(2);
    expect(userinfo.stderr).toContain('https://***@smsc.example.com');
    expect(userinfo.stderr).not.toContain('hunter2');
  });

  it('warns before sending credentials over plain HTTP to another machine', async () => {
    const plain = await smsv4(['lookup', '14155550100', '--base-url', 'http://smsc.example.invalid', '--account-id', 'acme', '--password-stdin', '--timeout', '2000'], { input: 'pw' });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^smsv4: warning: the credentials go to http:\/\/smsc\.example\.invalid over plain HTTP, readable by anyone on the way: use https\n/);
  });
});

describe('lookup and invoke', () => {
  it('looks up an operator, from SMSV4_BASE_URL', async () => {
    const run = await smsv4(['lookup', '14155550100'], { env: { SMSV4_BASE_URL: sandbox.url } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Operator\s+Sample AT&T Mobility \(383\)/);
    expect(run.stdout).toMatch(/Limits\s+text 160, binary 140, unicode 70/);
    const raw = await api(['lookup', '14155550100', '--raw', '--accept', 'json']);
    expect(JSON.parse(raw.stdout)).toHaveProperty('preview.mobileOperator.mobileOperatorId', 383);
  });

  it('invokes a service with variables, and refuses a bad scope with 12002 before it leaves', async () => {
    const ok = await api(['invoke', '1a2b3c', '--phone', '14155550100', '--operator', '383', '--var', 'User.FIRST_NAME=Ada', '--var', 'session.ORDER=x', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, httpStatus: 202 });
    const file = await api(['invoke', 'ABCDEF', '--file', coreFixture('invoke-service/valid/every-scope.json')]);
    expect(file.code, file.stderr).toBe(0);
    expect(file.stdout).toContain('Accepted (HTTP 202)');
    const bad = await api(['invoke', '1a2b3c', '--phone', '14155550100', '--var', 'planet.NAME=Mars']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`12002 ${INVOKE_INVALID.scopeUnknown.replace('{scope}', '"planet"')}`);
    const smsOnly = await api(['invoke', '1a2b3c', '--phone', '14155550100', '--account-id', 'sms-only', '--password', 'sms-only-password']);
    expect(smsOnly.code).toBe(1);
    expect(smsOnly.stderr).toContain('12001');
    expect((await api(['invoke', 'not-hex', '--phone', '14155550100'])).code).toBe(2);
  });
});
