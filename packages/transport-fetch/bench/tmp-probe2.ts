import { fork } from 'node:child_process';
import { buildSendRequest, type MtRequest } from '@smsv4/core';
import { createClient } from '../src/index.js';
import { exchange } from '../src/exchange.js';
import { execute } from '../src/execute.js';
import { parseSendResponse } from '@smsv4/core';
import { DEFAULT_RETRY_POLICIES } from '../src/retry-policy.js';
const mt: MtRequest = { destination: { address: '14155550100' }, source: { address: '14155550199', ton: 1 }, message: { type: 'text', content: 'Your order 1234 has shipped. Reply STOP to opt out.' }, delivery: { receiptRequested: 'final' } };
const child = fork(new URL('./tmp-server.mjs', import.meta.url));
const port = await new Promise<number>((r) => child.once('message', (m: any) => r(m.port)));
const baseUrl = `http://127.0.0.1:${port}`;
const ctx = { endpoints: { baseUrl }, credentials: { accountId: 'a', password: 'b' } };
const p = buildSendRequest(ctx, mt, 'json');
const client = createClient({ baseUrl, accountId: 'a', password: 'b' });
const fns: Record<string, () => Promise<unknown>> = {
  bare: async () => { const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body }); await r.arrayBuffer(); },
  signal: async () => { const c = new AbortController(); const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: c.signal }); await r.arrayBuffer(); },
  client: () => client.send(mt),
  executeOnly: () => execute(p, parseSendResponse, { fetch: (u, i) => fetch(u, i), timeoutMs: 30000, signal: undefined, maxResponseBytes: 65536, requestInit: undefined, policy: DEFAULT_RETRY_POLICIES.send, random: Math.random, onAttempt: undefined }),
  reader: async () => { const c = new AbortController(); const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: c.signal }); const rd = r.body!.getReader(); for (;;) { const x = await rd.read(); if (x.done) break; } },
  race: async () => { const c = new AbortController(); let stop!: (e: unknown) => void; const stopped = new Promise<never>((_, rej) => (stop = rej)); stopped.catch(() => {}); const t = setTimeout(() => stop(1), 30000); const r = await Promise.race([fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: c.signal }), stopped]); await Promise.race([r.arrayBuffer(), stopped]); clearTimeout(t); },
  exchangeOnly: async () => { await exchange(p, { fetch: (u, i) => fetch(u, i), timeoutMs: 30000, signal: undefined, maxResponseBytes: 65536, requestInit: undefined }); },
};
const names = Object.keys(fns);
for (const n of names) for (let i = 0; i < 1000; i++) await fns[n]!();
const wall: Record<string, number[]> = {}; const cpu: Record<string, number[]> = {};
for (let round = 0; round < 40; round++) {
  for (const n of round % 2 ? names : [...names].reverse()) {
    const c0 = process.cpuUsage(); const t0 = performance.now();
    for (let i = 0; i < 200; i++) await fns[n]!();
    const dt = performance.now() - t0; const dc = process.cpuUsage(c0);
    (wall[n] ??= []).push((dt * 1000) / 200); (cpu[n] ??= []).push((dc.user + dc.system) / 200);
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
for (const n of names) console.log(n, 'wall', med(wall[n]!).toFixed(1), 'cpu', med(cpu[n]!).toFixed(1));
child.disconnect();
