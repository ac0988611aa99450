import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSendRequest, parseSendResponse, validateMtRequest, type MtRequest } from '@smsv4/core';

const mt: MtRequest = {
  destination: { address: '14155550100' },
  source: { address: '14155550199', ton: 1 },
  message: { type: 'text', content: 'Your order 1234 has shipped. Reply STOP to opt out.' },
  delivery: { receiptRequested: 'final' },
};
const server = createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(202, { location: 'http://127.0.0.1/sms/v4/mt/AAAAA-BBBBB-CCCCC-00001', 'x-request-id': 'r', 'content-length': '0' }); res.end(); }); });
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const ctx = { endpoints: { baseUrl }, credentials: { accountId: 'a', password: 'b' } };
const p = buildSendRequest(ctx, mt, 'json');

function sync(name: string, fn: () => unknown, n = 100000) {
  for (let i = 0; i < n / 10; i++) fn();
  const t = performance.now(); for (let i = 0; i < n; i++) fn(); console.log(name, (((performance.now() - t) * 1000) / n).toFixed(2), 'µs');
}
sync('validate', () => validateMtRequest(mt));
sync('build', () => buildSendRequest(ctx, mt, 'json'));
const h = new Headers({ location: 'http://127.0.0.1/sms/v4/mt/AAAAA-BBBBB-CCCCC-00001', 'x-request-id': 'r' });
sync('parse', () => parseSendResponse({ status: 202, headers: h, body: new Uint8Array(0) }));

async function timed(name: string, fn: () => Promise<void>, n = 3000) {
  for (let i = 0; i < 1000; i++) await fn();
  const res: number[] = [];
  for (let r = 0; r < 5; r++) { const t = performance.now(); for (let i = 0; i < n / 5; i++) await fn(); res.push(((performance.now() - t) * 1000) / (n / 5)); }
  res.sort((a, b) => a - b); console.log(name, res[2]!.toFixed(1), 'µs');
}
const bare = async () => { const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body }); await r.arrayBuffer(); };
const withSignal = async () => { const c = new AbortController(); const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: c.signal }); await r.arrayBuffer(); };
const withTimer = async () => { const t = setTimeout(() => {}, 30000); const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body }); await r.arrayBuffer(); clearTimeout(t); };
const withReader = async () => { const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body }); const rd = r.body!.getReader(); for (;;) { const x = await rd.read(); if (x.done) break; } };
const noBodyRead = async () => { const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body }); if (r.headers.get('content-length') === '0') { await r.body?.cancel(); } };
for (let k = 0; k < 2; k++) {
  await timed('bare', bare);
  await timed('signal', withSignal);
  await timed('timer', withTimer);
  await timed('reader', withReader);
  await timed('cancel', noBodyRead);
}
server.close();
