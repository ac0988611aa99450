/**
 * Mutual TLS for Invoke Service on Node: the sandbox over HTTPS asks for a client certificate; the
 * client presents one through an undici `Agent`, handed to Node's global `fetch` as `requestInit`'s
 * `dispatcher`, or to undici's own `fetch` through the `fetch` option.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INVOKE_ERRORS } from '@smsv4/core';
import { createSandbox, type SandboxServer } from '@smsv4/sandbox';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, SmsApiError, type FetchFunction } from '../src/index.js';
import { account, invokeFixture } from './helpers.js';

const sandbox = createSandbox();
const pem: Record<string, string> = {};
let dir: string;
let server: SandboxServer;
const agents: Agent[] = [];

/** A throwaway PKI: a CA, the server's certificate for 127.0.0.1, and client certificates. */
function makePki(): void {
  dir = mkdtempSync(join(tmpdir(), 'transport-fetch-mtls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=transport-fetch test CA');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  const leaf = (name: string, cn: string, ext?: string) => {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', ...(ext ? ['-extfile', ext] : []));
    pem[`${name}.key`] = readFileSync(join(dir, `${name}.key`), 'utf8');
    pem[`${name}.crt`] = readFileSync(join(dir, `${name}.crt`), 'utf8');
  };
  leaf('server', '127.0.0.1', 'server.ext');
  leaf('approved', 'sandbox-client'); // approved for the default account `sandbox`
  leaf('stranger', 'someone-else');
  pem['ca.crt'] = readFileSync(join(dir, 'ca.crt'), 'utf8');
}

function agent(client?: 'approved' | 'stranger'): Agent {
  const made = new Agent({
    connect: { ca: pem['ca.crt'], ...(client === undefined ? {} : { cert: pem[`${client}.crt`], key: pem[`${client}.key`] }) },
  });
  agents.push(made);
  return made;
}

beforeAll(async () => {
  makePki();
  server = await sandbox.listen({
    port: 0,
    host: '127.0.0.1',
    tls: { key: pem['server.key'] as string, cert: pem['server.crt'] as string, ca: pem['ca.crt'] as string, requestCert: true },
  });
}, 30_000);
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await server?.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const request = invokeFixture('invoke-minimal.json');

describe('Invoke Service over mutual TLS', () => {
  it('authenticates with the client certificate (no Authorization header), global fetch + dispatcher', async () => {
    const client = createClient({
      baseUrl: server.url,
      ...account(),
      invokeServiceAuthentication: 'client-certificate',
      requestInit: { dispatcher: agent('approved') },
    });
    const result = await client.invokeService('c0ffee', request);
    expect(result.httpStatus).toBe(202);
    const [invocation] = sandbox.snapshot().invocations;
    expect(invocation).toMatchObject({ accountId: 'sandbox', serviceId: 'c0ffee', outcome: 'accepted' });
  });

  it("works with undici's own fetch injected", async () => {
    const dispatcher = agent('approved');
    const viaUndici: FetchFunction = (url, init) => undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher }) as unknown as Promise<Response>;
    const client = createClient({ baseUrl: server.url, ...account(), invokeServiceAuthentication: 'client-certificate', fetch: viaUndici });
    expect((await client.invokeService('c0ffee', request)).httpStatus).toBe(202);
  });

  it.each([
    ['without a client certificate', undefined],
    ['with a certificate whose name is not approved', 'stranger'],
  ] as const)('is refused with 12010 %s', async (_, client) => {
    const c = createClient({ baseUrl: server.url, ...account(), invokeServiceAuthentication: 'client-certificate', requestInit: { dispatcher: agent(client) } });
    const error = await c.invokeService('c0ffee', request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsApiError);
    expect(error).toMatchObject({ kind: 'api-error', code: 12010, description: INVOKE_ERRORS[12010].description, httpStatus: INVOKE_ERRORS[12010].httpStatus, retryable: false });
  });

  it('still takes Basic authentication over TLS, and SMS operations keep it', async () => {
    const c = createClient({ baseUrl: server.url, ...account(), requestInit: { dispatcher: agent() } });
    expect((await c.invokeService('c0ffee', request)).httpStatus).toBe(202);
    expect((await c.lookup('14155550100')).preview.mobileOperator?.mobileOperatorId).toBe(383);
  });

  it('a server certificate the client does not trust: a network error that says the request did not leave', async () => {
    const c = createClient({ baseUrl: server.url, ...account() });
    const error = await c.lookup('14155550100').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', reachedService: 'no', retryable: false, attempts: 1 });
  });
});
