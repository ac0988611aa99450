/** Invoke Service over real HTTP: 202, 12002–12007, and mutual TLS (12010). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeInvokeErrorBody, INVOKE_ERRORS, type InvokeErrorCode } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type SandboxServer } from '../src/index.js';
import { auth } from './helpers.js';

const sandbox = createSandbox();
let server: SandboxServer;
beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
});

const invoke = (path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${server.url}${path}`, {
    method: init.method ?? 'POST',
    headers: { authorization: auth(), 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });

async function expectInvokeError(res: Response, code: InvokeErrorCode): Promise<string> {
  expect(res.status).toBe(INVOKE_ERRORS[code].httpStatus);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const id = res.headers.get('x-request-id') ?? '';
  expect(id.length).toBeGreaterThanOrEqual(1);
  expect(id.length).toBeLessThanOrEqual(30);
  const body = decodeInvokeErrorBody(await res.text());
  if (!body.ok) throw new Error(body.error.description);
  expect(body.value.code).toBe(code);
  return body.value.description;
}

describe('Invoke Service', () => {
  it('accepts a well-formed request with 202, no body and a 1-30 character X-Request-Id, and records it', async () => {
    const res = await invoke('/service/v1/invokeService/00FF1a', { body: '{"endUser":{"phoneNumber":14155550100},"variables":{"Session":{"ORDER_ID":"42"}}}' });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
    const id = res.headers.get('x-request-id') ?? '';
    expect(id.length).toBeGreaterThanOrEqual(1);
    expect(id.length).toBeLessThanOrEqual(30);
    const call = sandbox.snapshot().invocations.find((i) => i.requestId === id);
    expect(call).toMatchObject({ accountId: 'sandbox', serviceId: '00FF1a', phoneNumber: '14155550100', outcome: 'accepted', variables: { session: { ORDER_ID: '42' } } });
  });

  it.each([
    ['endUser missing', '{}'],
    ['syntax error', '{"endUser":'],
    ['repeated member', '{"endUser":{"phoneNumber":14155550100},"endUser":{"phoneNumber":14155550100}}'],
    ['empty variables', '{"endUser":{"phoneNumber":14155550100},"variables":{}}'],
  ])('12002 for %s, with its condition in the description', async (_, body) => {
    const description = await expectInvokeError(await invoke('/service/v1/invokeService/abc', { body }), 12002);
    expect(description.startsWith(INVOKE_ERRORS[12002].description)).toBe(true);
  });

  it('12003 for a method other than POST, with Allow: POST', async () => {
    const res = await invoke('/service/v1/invokeService/abc', { method: 'GET' });
    expect(res.headers.get('allow')).toBe('POST');
    await expectInvokeError(res, 12003);
  });

  it('12004 for another API version', async () => {
    await expectInvokeError(await invoke('/service/v2/invokeService/abc', { body: '{}' }), 12004);
  });

  it('12005 for a query parameter', async () => {
    await expectInvokeError(await invoke('/service/v1/invokeService/abc?x=1', { body: '{}' }), 12005);
  });

  it.each(['/service/v1/invokeServices/abc', '/service/v1/invokeService/xyz', '/service/v1/invokeService/abc/more'])('12006 for %s', async (path) => {
    await expectInvokeError(await invoke(path, { body: '{}' }), 12006);
  });

  it('12007 for a body over 8000 bytes, before parsing it', async () => {
    const body = `{"endUser":{"phoneNumber":14155550100},"pad":"${'x'.repeat(8000)}"}`;
    await expectInvokeError(await invoke('/service/v1/invokeService/abc', { body }), 12007);
  });

  it('415 without a JSON Content-Type', async () => {
    const res = await invoke('/service/v1/invokeService/abc', { body: '{}', headers: { 'content-type': 'application/xml' } });
    expect(res.status).toBe(415);
    expect(await res.text()).toBe('');
  });
});

// Certificates are made at test time with openssl (the test command's set-up step installs it).
describe('mutual TLS', () => {
  let dir: string;
  let tlsServer: SandboxServer;
  const files: Record<string, string> = {};
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-mtls-'));
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=Test CA');
    writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\n');
    const leaf = (name: string, cn: string, signer: 'ca' | 'self', ext?: string) => {
      openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
      if (signer === 'ca') {
        openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '1', ...(ext ? ['-extfile', ext] : []));
      } else {
        openssl('x509', '-req', '-in', `${name}.csr`, '-signkey', `${name}.key`, '-out', `${name}.crt`, '-days', '1');
      }
      files[`${name}.key`] = readFileSync(join(dir, `${name}.key`), 'utf8');
      files[`${name}.crt`] = readFileSync(join(dir, `${name}.crt`), 'utf8');
    };
    leaf('server', '127.0.0.1', 'ca', 'server.ext');
    leaf('approved', 'sandbox-client', 'ca');
    leaf('stranger', 'someone-else', 'ca');
    leaf('forged', 'sandbox-client', 'self');
    files['ca.crt'] = readFileSync(join(dir, 'ca.crt'), 'utf8');
    tlsServer = await sandbox.listen({ port: 0, host: '127.0.0.1', tls: { key: files['server.key'] as string, cert: files['server.crt'] as string, ca: files['ca.crt'] as string, requestCert: true } });
  });
  afterAll(async () => {
    await tlsServer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (client?: 'approved' | 'stranger' | 'forged', authorization?: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = httpsRequest(
        `${tlsServer.url}/service/v1/invokeService/abc123`,
        {
          method: 'POST',
          ca: files['ca.crt'],
          ...(client === undefined ? {} : { key: files[`${client}.key`], cert: files[`${client}.crt`] }),
          headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
          agent: false,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end('{"endUser":{"phoneNumber":14155550100}}');
    });

  it('accepts a request authenticated by an approved client certificate', async () => {
    const res = await call('approved');
    expect(res.status).toBe(202);
    expect(res.body).toBe('');
  });

  it.each([
    ['no certificate', undefined],
    ['a certificate whose name is not approved', 'stranger'],
    ['a certificate the CA did not sign', 'forged'],
  ] as const)('answers 12010 for %s', async (_, client) => {
    const res = await call(client);
    expect(res.status).toBe(INVOKE_ERRORS[12010].httpStatus);
    const body = decodeInvokeErrorBody(res.body);
    expect(body.ok && body.value).toEqual({ code: 12010, description: INVOKE_ERRORS[12010].description });
  });

  it('still takes Basic authentication over TLS', async () => {
    expect((await call(undefined, auth())).status).toBe(202);
    expect((await call('approved', auth('sandbox', 'wrong'))).status).toBe(INVOKE_ERRORS[12009].httpStatus);
  });
});
