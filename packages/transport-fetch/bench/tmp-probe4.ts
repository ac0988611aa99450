import { fork } from 'node:child_process';
import { buildSendRequest, parseSendResponse, validateMtRequest, type MtRequest } from '@smsv4/core';
const mt: MtRequest = { destination: { address: '14155550100' }, source: { address: '14155550199', ton: 1 }, message: { type: 'text', content: 'Your order 1234 has shipped. Reply STOP to opt out.' }, delivery: { receiptRequested: 'final' } };
const child = fork(new URL('./tmp-server.mjs', import.meta.url)); const port = await new Promise<number>((r) => child.once('message', (m: any) => r(m.port)));
const baseUrl = `http://127.0.0.1:${port}`;
const ctx = { endpoints: { baseUrl }, credentials: { accountId: 'a', password: 'b' } };
const p = buildSendRequest(ctx, mt, 'json');
const responses: Response[] = [];
for (let i = 0; i < 2000; i++) { const r = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body }); await r.arrayBuffer(); responses.push(r); }
function sync(name: string, fn: (i: number) => unknown, n = 2000) {
  const t = performance.now(); for (let i = 0; i < n; i++) fn(i); console.log(name, (((performance.now() - t) * 1000) / n).toFixed(2), 'µs');
}
for (let k = 0; k < 3; k++) {
  sync('parse (fresh responses)', (i) => parseSendResponse({ status: 202, headers: responses[i]!.headers, body: new Uint8Array(0) }));
  sync('headers.get x2', (i) => { responses[i]!.headers.get('x-request-id'); responses[i]!.headers.get('location'); });
  sync('validate', () => validateMtRequest(mt));
  sync('build', () => buildSendRequest(ctx, mt, 'json'));
  sync('Date.now x3', () => { Date.now(); Date.now(); Date.now(); });
  sync('abortcontroller+timer', () => { const c = new AbortController(); const t = setTimeout(() => c.abort(), 30000); clearTimeout(t); });
}
child.disconnect();
