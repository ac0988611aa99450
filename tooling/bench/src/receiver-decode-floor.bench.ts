import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryDuplicateStore, createWebhookHandler, decodeCallback } from '@smsv4/core';
import type { BenchSuite, BenchTask } from './harness.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'packages', 'core', 'test', 'fixtures');
const RECEIPT = readFileSync(join(FIXTURES, 'delivery-receipt', 'single-delivered.xml'), 'utf8');
const HEADERS = { 'content-type': 'application/xml; charset=utf-8', 'x-api-version': '4' };
const BATCH = 200;
const TICKET = /ticketId="([^"]+)"/.exec(RECEIPT)?.[1] ?? '';
if (TICKET === '') throw new Error('the receipt fixture must hold a ticketId attribute');

/**
 * A batch of receipts with a ticket of their own each (the same length as the fixture's), 1 in 20
 * the previous one of the batch again (the harness may run two batches at once: repeats stay within one).
 */
function receipts(prefix: string): () => string[] {
  let n = 0;
  return () => {
    const batch: string[] = [];
    for (let i = 0; i < BATCH; i++) {
      batch.push(i % 20 === 1 ? (batch[i - 1] as string) : RECEIPT.replace(TICKET, `${TICKET.slice(0, -5)}${prefix}${(n++ % 36 ** 4).toString(36).toUpperCase().padStart(4, '0')}`));
    }
    return batch;
  };
}

const floor: BenchTask = (() => {
  const next = receipts('F');
  return {
    name: 'decodeCallback alone (the decode floor)',
    fn: () => {
      let ok = 0;
      for (const body of next()) if (decodeCallback(body, 'xml').ok) ok++;
      if (ok !== BATCH) throw new Error('every receipt must decode');
      return ok;
    },
  };
})();

const RECEIVER = 'createWebhookHandler, async handler, in-memory duplicate store';
const receiver: BenchTask = (() => {
  const next = receipts('R');
  const handler = createWebhookHandler({
    allowUnauthenticated: true,
    onDeliveryReceipt: async () => undefined,
    store: createMemoryDuplicateStore({ maxEntries: 2_000_000 }),
    onError: (error: unknown) => {
      throw error;
    },
  });
  return {
    name: RECEIVER,
    fn: async () => {
      let answered = 0;
      for (const body of next()) if ((await handler.handle({ method: 'POST', headers: HEADERS, body })).status === 200) answered++;
      if (answered !== BATCH) throw new Error('every receipt must be answered 200');
      return answered;
    },
  };
})();

/**
 * Core's receiver in-process (its checks, decoding, the duplicate store, an async handler, the
 * answer) against `decodeCallback` alone on the same kind of receipts: the receiver's own machinery.
 */
export const receiverDecodeFloor: BenchSuite = {
  id: 'receiver-decode-floor',
  title: "Core's receiver vs decodeCallback alone (the decode floor, in-process)",
  path: "Core's receiver against the decode floor (in-process)",
  items: BATCH,
  itemName: 'receipts',
  baseline: floor,
  subjects: [receiver],
  target: { kind: 'max-time-ratio', value: 1.3, subject: RECEIVER },
  notes: () => [
    `Each call takes ${BATCH} XML delivery receipts (packages/core/test/fixtures/delivery-receipt/single-delivered.xml, each with a ticket of its own, 1 in 20 the previous one again): the floor decodes them with \`decodeCallback\`; the receiver takes them through \`handler.handle()\` (method, API version, content type, size, decoding, the in-memory duplicate store, an async handler, the answer), as an adapter does after reading the body.`,
    `Load average at the end of the run: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores${(loadavg()[0] ?? 0) > availableParallelism() ? ' (a shared, busy machine: rounds are preempted, and the longer task more often, so the ratio reads high)' : ''}.`,
    'Why 1.3×: over HTTP, decoding costs about half of what reading the body on a framework route costs (the decode floor runs at 61–83 % of the read floor), so a receiver at 90 % of the decode floor\'s rate may add about a third of the decoding\'s time of its own; this measure isolates that part from the noise of loopback rounds.',
  ],
};
