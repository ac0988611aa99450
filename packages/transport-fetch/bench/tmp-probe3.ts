import { fork } from 'node:child_process';
import { buildSendRequest, type MtRequest } from '@smsv4/core';
import { createClient } from '../src/index.js';
const mt: MtRequest = { destination: { address: '14155550100' }, source: { address: '14155550199', ton: 1 }, message: { type: 'text', content: 'Your order 1234 has shipped. Reply STOP to opt out.' }, delivery: { receiptRequested: 'final' } };
const inProcess = process.argv.includes('--in-process');
let port: number; let child: any;
if (inProcess) {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(202, { location: 'http://127.0.0.1/sms/v4/mt/AAAAA-BBBBB-CCCCC-00001', 'x-request-id': 'r', 'content-length': '0' }); res.end(); }); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r)); port = (server.address() as any).port; server.unref();
} else { child = fork(new URL('./tmp-server.mjs', import.meta.url)); port = await new Promise<number>((r) => child.once('message', (m: any) => r(m.port))); }
const baseUrl = `http://127.0.0.1:${port}`;
const p = buildSendRequest({ endpoints: { baseUrl }, credentials: { accountId: 'a', password: 'b' } }, mt, 'json');
const client = createClient({ baseUrl, accountId: 'a', password: 'b' });
const bare = async () => { const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body }); await r.arrayBuffer(); };
import { exchange } from '../src/exchange.js';
import { execute } from '../src/execute.js';
import { parseSendResponse, validateMtRequest } from '@smsv4/core';
import { DEFAULT_RETRY_POLICIES } from '../src/retry-policy.js';
const variant = process.argv.find((x) => x.startsWith('--v='))?.slice(4) ?? 'client';
const settings = { fetch: (u: string, i: RequestInit) => fetch(u, i), timeoutMs: 30000, signal: undefined, maxResponseBytes: 65536, requestInit: undefined, policy: DEFAULT_RETRY_POLICIES.send, random: Math.random, onAttempt: undefined };
const variants: Record<string, () => Promise<unknown>> = {
  client: () => client.send(mt),
  signal: async () => { const c = new AbortController(); const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: c.signal }); await r.arrayBuffer(); },
  reader: async () => { const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body }); const rd = r.body!.getReader(); for (;;) { const x = await rd.read(); if (x.done) break; } },
  exchange: () => exchange(p, settings),
  execute: () => execute(p, parseSendResponse, settings),
  buildExecute: () => { validateMtRequest(mt); return execute(buildSendRequest({ endpoints: { baseUrl }, credentials: { accountId: 'a', password: 'b' } }, mt, 'json'), parseSendResponse, settings); },
};
const viaClient = variants[variant]!;
for (let i = 0; i < 2000; i++) { await bare(); await viaClient(); }
const a: number[] = [], b: number[] = [];
const N = 5000;
for (let i = 0; i < N; i++) {
  if (i % 2) { let t = performance.now(); await bare(); a.push(performance.now() - t); t = performance.now(); await viaClient(); b.push(performance.now() - t); }
  else { let t = performance.now(); await viaClient(); b.push(performance.now() - t); t = performance.now(); await bare(); a.push(performance.now() - t); }
}
const med = (x: number[]) => [...x].sort((m, n) => m - n)[x.length >> 1]! * 1000;
const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length * 1000;
console.log('bare', med(a).toFixed(1), mean(a).toFixed(1), 'client', med(b).toFixed(1), mean(b).toFixed(1), 'ratio', (med(b) / med(a)).toFixed(3), (mean(b) / mean(a)).toFixed(3));
child?.disconnect();
