/**
 * Client overhead per send: `client.send(mt)` (validation, encoding, timeout, body reading, parsing
 * of the answer) against a bare `fetch` of the same request prepared once, both over loopback to the
 * same local server that answers 202 with `Location` at once (so nothing hides the client's cost).
 * Rounds of the two alternate in one process; the figure is the median over rounds.
 *
 * Run (after building core): `npx -y pnpm@10.34.8 --filter @smsv4/transport-fetch bench`
 * (`bench:write` also rewrites the block in BENCHMARKS.md).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { buildSendRequest, type MtRequest } from '@smsv4/core';
import { writeReportBlock } from '../../../tooling/bench/src/report-file.js';
import { createClient } from '../src/index.js';

const ROUNDS = 30;
const PER_ROUND = 200;
const WARMUP = 2000;
const TARGET = 1.1;
const COMMAND = 'npx -y pnpm@10.34.8 --filter @smsv4/core build && npx -y pnpm@10.34.8 --filter @smsv4/transport-fetch bench:write';

const mt: MtRequest = {
  destination: { address: '14155550100' },
  source: { address: '14155550199', ton: 1 },
  message: { type: 'text', content: 'Your order 1234 has shipped. Reply STOP to opt out.' },
  delivery: { receiptRequested: 'final' },
};

let ticket = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    ticket = (ticket + 1) % 100_000;
    const id = `AAAAA-BBBBB-CCCCC-${String(ticket).padStart(5, '0')}`;
    res.writeHead(202, { location: `http://127.0.0.1/sms/v4/mt/${id}`, 'x-request-id': `req-${id}`, 'content-length': '0' });
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const credentials = { accountId: 'bench', password: 'bench-password' };

const client = createClient({ baseUrl, ...credentials });
const prepared = buildSendRequest({ endpoints: { baseUrl }, credentials }, mt, 'json');

async function bareFetch(): Promise<void> {
  const res = await fetch(prepared.url, { method: prepared.method, headers: prepared.headers, body: prepared.body });
  await res.arrayBuffer();
  if (res.status !== 202 || res.headers.get('location') === null) throw new Error(`unexpected ${res.status}`);
}

async function clientSend(): Promise<void> {
  const sent = await client.send(mt);
  if (sent.ticketId === '') throw new Error('no ticket');
}

async function timeRound(fn: () => Promise<void>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < PER_ROUND; i++) await fn();
  return ((performance.now() - started) * 1000) / PER_ROUND;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

for (let i = 0; i < WARMUP; i++) {
  await bareFetch();
  await clientSend();
}
const bare: number[] = [];
const viaClient: number[] = [];
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which goes first, so neither always runs on a warmer connection pool.
  const first = round % 2 === 0;
  const a = first ? await timeRound(bareFetch) : 0;
  const b = await timeRound(clientSend);
  const c = first ? a : await timeRound(bareFetch);
  bare.push(c);
  viaClient.push(b);
  ratios.push(b / c);
}
await new Promise<void>((resolve) => server.close(() => resolve()));

const ratio = median(ratios);
const bareUs = median(bare);
const clientUs = median(viaClient);
const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const met = ratio <= TARGET;
const markdown = [
  '## transport-fetch: client overhead per send',
  '',
  `Target: \`client.send(mt)\` at most ${TARGET}× the time of a bare \`fetch\` of the same request prepared once (within 10 %). Measured: **${fmt(ratio, 3)}×**: ${met ? 'met' : '**not met**'}.`,
  '',
  '| task | median per send | sends/s | time vs baseline |',
  '|---|---|---|---|',
  `| bare \`fetch\` of the prepared request, body read (baseline) | ${fmt(bareUs)} µs | ${fmt(1e6 / bareUs, 0)} | 1.00× |`,
  `| \`client.send(mt)\`: validate, encode, timeout, read, parse | ${fmt(clientUs)} µs | ${fmt(1e6 / clientUs, 0)} | ${fmt(ratio, 3)}× |`,
  '',
  `- Overhead: ${fmt(clientUs - bareUs)} µs per send. Sequential sends over loopback (keep-alive) to a local server that answers 202 with \`Location\` at once; ${ROUNDS} alternating rounds of ${PER_ROUND} sends each after ${WARMUP} warm-up sends of each; figures are medians over rounds, the ratio the median of the per-round ratios.`,
  '',
  `Command: \`${COMMAND}\`. Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)}.`,
].join('\n');
console.log(markdown);
if (process.argv.includes('--write')) {
  writeReportBlock('transport-fetch-overhead', markdown);
  console.log('BENCHMARKS.md updated');
}
if (!met) process.exitCode = 1;
