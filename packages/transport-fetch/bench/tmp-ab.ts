import { fork } from 'node:child_process';
import { buildSendRequest, encodeMtRequest, parseSendResponse, validateMtRequest, type MtRequest } from '@smsv4/core';
import { createClient } from '../src/index.js';
import { exchange } from '../src/exchange.js';
import { execute } from '../src/execute.js';
import { DEFAULT_RETRY_POLICIES } from '../src/retry-policy.js';
const mt: MtRequest = { destination: { address: '14155550100' }, source: { address: '14155550199', ton: 1 }, message: { type: 'text', content: 'Your order 1234 has shipped. Reply STOP to opt out.' }, delivery: { receiptRequested: 'final' } };
const credentials = { accountId: 'sandbox', password: 'sandbox-password' };
const child = fork(new URL('./loopback-servers.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
const urls = await new Promise<{ instant: string; sandbox: string }>((r) => child.once('message', (m) => r(m as any)));
const baseUrl = process.argv.includes('--sandbox') ? urls.sandbox : urls.instant;
const p = buildSendRequest({ endpoints: { baseUrl }, credentials }, mt, 'json');
const client = createClient({ baseUrl, ...credentials });
const settings = { fetch: (u: string, i: RequestInit) => fetch(u, i), timeoutMs: 30000, signal: undefined, maxResponseBytes: 65536, requestInit: undefined, policy: DEFAULT_RETRY_POLICIES.send, random: Math.random, onAttempt: undefined };
const tasks: Record<string, () => Promise<unknown>> = {
  bare: async () => { const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body }); await r.arrayBuffer(); },
  exchange: () => exchange(p, settings),
  timeout: async () => { const c = new AbortController(); const t = setTimeout(() => c.abort(), 30000); const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: c.signal }); await r.arrayBuffer(); clearTimeout(t); },
  execute: () => execute(p, parseSendResponse, settings),
  timeoutParse: async () => { const c = new AbortController(); const t = setTimeout(() => c.abort(), 30000); const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: c.signal }); const b = new Uint8Array(await r.arrayBuffer()); clearTimeout(t); parseSendResponse({ status: r.status, headers: r.headers, body: b }); },
  coreOnly: async () => { validateMtRequest(mt); const q = buildSendRequest({ endpoints: { baseUrl }, credentials }, mt, 'json'); const r = await fetch(q.url, { method: q.method, headers: q.headers, body: q.body }); const b = new Uint8Array(await r.arrayBuffer()); parseSendResponse({ status: r.status, headers: r.headers, body: b }); },
  client: () => client.send(mt),
  exParse: async () => { const o = await exchange(p, settings); if (o.kind === 'response') parseSendResponse({ status: o.response.status, headers: o.response.headers, body: o.body }); },
  template: () => { const v = validateMtRequest(mt); if (!v.ok) throw 1; return execute({ ...p, body: encodeMtRequest(v.value, 'json') }, parseSendResponse, settings); },
};
const names = Object.keys(tasks);
for (let i = 0; i < 1000; i++) for (const n of names) await tasks[n]!();
const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let i = 0; i < 4000; i++) for (let k = 0; k < names.length; k++) { const n = names[(i + k) % names.length]!; const t = performance.now(); await tasks[n]!(); samples[n]!.push((performance.now() - t) * 1000); }
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const base = med(samples.bare!);
for (const n of names) console.log(n.padEnd(10), med(samples[n]!).toFixed(1), '+' + (med(samples[n]!) - base).toFixed(1));
child.disconnect();
