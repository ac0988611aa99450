import { fork } from 'node:child_process';
import type { MtRequest } from '@smsv4/core';
import { createClient } from '../src/index.js';
const mt: MtRequest = { destination: { address: '14155550100' }, source: { address: '14155550199', ton: 1 }, message: { type: 'text', content: 'Your order 1234 has shipped. Reply STOP to opt out.' }, delivery: { receiptRequested: 'final' } };
const child = fork(new URL('./tmp-server.mjs', import.meta.url)); const port = await new Promise<number>((r) => child.once('message', (m: any) => r(m.port)));
const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, accountId: 'a', password: 'b' });
for (let i = 0; i < 20000; i++) await client.send(mt);
child.disconnect();
