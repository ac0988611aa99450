/** Inbound messages reaching a local receiver: single text, multipart with 8- and 16-bit references, hex. */
import { decodeHex, decodeMobileOriginate, hexToBytes, parseUserDataHeader, type MobileOriginate } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEFAULT_ACCOUNTS, type SandboxServer } from '../src/index.js';
import { eventually, startReceiver, type Receiver, adminFetch } from './helpers.js';

let receiver: Receiver;
let server: SandboxServer;
const sandbox = createSandbox({
  timeScale: 1000,
  accounts: [{ ...DEFAULT_ACCOUNTS[0], accountId: 'sandbox', password: 'sandbox-password' }, { accountId: 'mo', password: 'mo-password', inboundFormat: 'json' }],
});
const api = adminFetch(sandbox);

beforeAll(async () => {
  receiver = await startReceiver();
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
  await receiver.close();
});

async function inject(body: Record<string, unknown>): Promise<{ status: number; json: { ticketIds?: string[]; error?: { code: string; description: string } } }> {
  const res = await api(`${server.url}/__sandbox/api/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

async function received(count: number, format: 'json' | 'xml' = 'xml'): Promise<MobileOriginate[]> {
  const before = receiver.received.length - count;
  const got = (await receiver.waitFor(before + count)).slice(before);
  for (const g of got) {
    expect(g.headers['x-api-version']).toBe('4');
    expect(g.headers['content-type']).toMatch(format === 'json' ? /^application\/json;\s*charset=UTF-8$/ : /^application\/xml;\s*charset=UTF-8$/);
  }
  return got.map((g) => {
    const decoded = decodeMobileOriginate(g.body, format);
    if (!decoded.ok) throw new Error(decoded.error.description);
    return decoded.value;
  });
}

describe('inbound messages', () => {
  it('posts a single text message as type text', async () => {
    const before = receiver.received.length;
    const { status, json } = await inject({ from: '447700900123', to: '12345', text: 'Hello there', url: receiver.url });
    expect(status).toBe(202);
    expect(json.ticketIds).toHaveLength(1);
    await receiver.waitFor(before + 1);
    const [mo] = await received(1);
    expect(mo).toMatchObject({
      ticketId: json.ticketIds?.[0],
      source: { ton: 1, address: '447700900123', mobileOperatorId: 900 },
      destination: { ton: 3, address: '12345' },
      message: { type: 'text', udh: false, content: 'Hello there' },
    });
    expect(mo?.submittedDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const view = await eventually(() => sandbox.snapshot().inbound.find((i) => i.ticketId === json.ticketIds?.[0] && i.status === 'delivered'));
    expect(view.text).toBe('Hello there');
  });

  it.each([8, 16] as const)('splits long text into parts with a concatenation header (%i-bit reference)', async (referenceBits) => {
    const before = receiver.received.length;
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(8).trim();
    const { status, json } = await inject({ from: '14155550100', to: '12345', text, referenceBits, url: receiver.url, format: 'json' });
    expect(status).toBe(202);
    expect(json.ticketIds).toHaveLength(3);
    await receiver.waitFor(before + 3);
    const parts = await received(3, 'json');
    const headers = parts.map((mo) => {
      expect(mo.message).toMatchObject({ type: 'hexEncodedText', udh: true });
      const bytes = hexToBytes(mo.message.content);
      if (!bytes.ok) throw new Error('not hex');
      const udh = parseUserDataHeader(bytes.value);
      if (!udh.ok) throw new Error(udh.error.message);
      const payload = mo.message.content.slice(udh.value.length * 2);
      const decoded = decodeHex(payload, 'GSM');
      return { concatenation: udh.value.concatenation, length: udh.value.length, text: decoded.ok ? decoded.value : '' };
    });
    expect(headers.map((h) => h.length)).toEqual(Array(3).fill(referenceBits === 8 ? 6 : 7));
    expect(headers.map((h) => h.concatenation?.referenceBits)).toEqual(Array(3).fill(referenceBits));
    expect(new Set(headers.map((h) => h.concatenation?.reference)).size).toBe(1);
    const ordered = headers.sort((a, b) => (a.concatenation?.sequence ?? 0) - (b.concatenation?.sequence ?? 0));
    expect(ordered.map((h) => [h.concatenation?.sequence, h.concatenation?.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(ordered.map((h) => h.text).join('')).toBe(text);
    expect(ordered[0]?.text.length).toBe(referenceBits === 8 ? 153 : 152);
  });

  it('encodes parts of non-GSM text in UTF-16', async () => {
    const before = receiver.received.length;
    const text = 'Привет, мир! '.repeat(7);
    const { json } = await inject({ from: '14155550100', to: '12345', text, url: receiver.url });
    expect(json.ticketIds).toHaveLength(2);
    await receiver.waitFor(before + 2);
    const parts = await received(2);
    const payloads = parts.map((mo) => {
      const bytes = hexToBytes(mo.message.content);
      const udh = bytes.ok ? parseUserDataHeader(bytes.value) : undefined;
      const decoded = decodeHex(mo.message.content.slice((udh?.ok ? udh.value.length : 0) * 2), 'UTF-16');
      return { sequence: udh?.ok ? udh.value.concatenation?.sequence : 0, text: decoded.ok ? decoded.value : '' };
    });
    expect(payloads.sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0)).map((p) => p.text).join('')).toBe(text);
  });

  it('posts hex content as hexEncodedText or binary, to the account’s URL in its format', async () => {
    const before = receiver.received.length;
    const hex = await inject({ from: '14155550100', to: 'ACME', hex: '48656C6C6F', charset: 'Latin-1', url: receiver.url });
    const binary = await inject({ from: '14155550100', to: 'ACME', hex: '0605040B8423F0C0FFEE', binary: true, udh: true, url: receiver.url });
    await receiver.waitFor(before + 2);
    const got = (await received(2)).sort((a, b) => a.message.type.localeCompare(b.message.type));
    expect(got.map((m) => [m.message.type, m.message.udh, m.message.content, m.destination.ton])).toEqual([
      ['binary', true, '0605040B8423F0C0FFEE', 5],
      ['hexEncodedText', false, '48656C6C6F', 5],
    ]);
    expect(sandbox.snapshot().inbound.find((i) => i.ticketId === hex.json.ticketIds?.[0])?.text).toBe('Hello');
    expect(binary.status).toBe(202);
  });

  it('uses the account’s inbound URL and format, and marks no-url when there is none', async () => {
    const noUrl = sandbox.injectInbound({ from: '14155550100', to: '12345', text: 'into the void' });
    expect(sandbox.snapshot().inbound.find((i) => i.ticketId === noUrl.ticketIds[0])?.status).toBe('no-url');
    const withAccount = createSandbox({ accounts: [{ accountId: 'mo', password: 'p', inboundUrl: receiver.url, inboundFormat: 'json' }] });
    try {
      const before = receiver.received.length;
      withAccount.injectInbound({ from: '14155550100', to: '12345', text: 'to the account URL' });
      const [got] = (await receiver.waitFor(before + 1)).slice(before);
      expect(got?.headers['content-type']).toMatch(/^application\/json/);
      expect(decodeMobileOriginate(got?.body ?? '', 'json').ok).toBe(true);
    } finally {
      await withAccount.close();
    }
  });

  it.each([
    [{ from: '+1415', to: '12345', text: 'x' }, 'from'],
    [{ from: '14155550100', to: '12345' }, 'text or hex'],
    [{ from: '14155550100', to: '12345', hex: 'ABC' }, 'hex'],
    [{ from: '14155550100', to: '12345', text: 'x', charset: 'ASCII' }, 'charset'],
    [{ from: '14155550100', to: '12345', text: 'Привет', charset: 'GSM' }, 'GSM'],
    [{ from: '14155550100', to: '12345', text: 'x', url: 'ftp://x' }, 'url'],
    [{ from: '14155550100', to: '12345', text: 'x', accountId: 'ghost' }, 'account'],
  ])('refuses %j with 400 invalid-inbound', async (body, mentions) => {
    const { status, json } = await inject(body);
    expect(status).toBe(400);
    expect(json.error?.code).toBe('invalid-inbound');
    expect(json.error?.description).toContain(mentions);
  });
});
