import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from '@opentelemetry/api';
import { createMemoryDuplicateStore, createTelemetry, createWebhookHandler, type WebhookHandler, type WebhookHandlerOptions } from '@smsv4/core';
import type { BenchSuite, BenchTask } from './harness.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'packages', 'core', 'test', 'fixtures');
const RECEIPT = readFileSync(join(FIXTURES, 'delivery-receipt', 'single-delivered.xml'), 'utf8');
const HEADERS = { 'content-type': 'application/xml; charset=utf-8', 'x-api-version': '4' };
const BATCH = 200;
/** A new ticket for each receipt, so that none is a duplicate; the same length as the fixture's. */
const TICKET = /ticketId="([^"]+)"/.exec(RECEIPT)?.[1] ?? '';
if (TICKET === '') throw new Error('the receipt fixture must hold a ticketId attribute');

function receiverTask(name: string, handler: WebhookHandler): BenchTask {
  let n = 0;
  const receipt = (): string => RECEIPT.replace(TICKET, `${TICKET.slice(0, -5)}${(n++).toString(36).toUpperCase().padStart(5, '0')}`);
  return {
    name,
    fn: async () => {
      let handled = 0;
      for (let i = 0; i < BATCH; i++) if ((await handler.handle({ method: 'POST', headers: HEADERS, body: receipt() })).status === 200) handled++;
      if (handled !== BATCH) throw new Error(`${name}: every receipt must be answered 200`);
      return handled;
    },
  };
}

const handlerOptions = (): WebhookHandlerOptions => ({
  // The bench posts in-process; no caller to check.
  allowUnauthenticated: true,
  onDeliveryReceipt: () => undefined,
  // Large enough that no ticket of the run is forgotten and none seen twice.
  store: createMemoryDuplicateStore({ maxEntries: 2_000_000 }),
  onError: (error: unknown) => {
    throw error;
  },
});

/**
 * Core's receiver handling delivery receipts in-process (checks, decoding, the duplicate store, the
 * handler), with `telemetry` built on the OpenTelemetry API installed but no SDK registered, against
 * the same receiver without `telemetry`: what a receiver pays for telemetry it has not switched on.
 */
export const receiverTelemetry: BenchSuite = {
  id: 'receiver-telemetry',
  title: "Core's receiver with telemetry, OpenTelemetry API without SDK, vs the same receiver without telemetry",
  path: "Core's receiver with telemetry (OpenTelemetry API, no SDK)",
  items: BATCH,
  itemName: 'receipts',
  baseline: receiverTask('createWebhookHandler, no telemetry', createWebhookHandler(handlerOptions())),
  subjects: [receiverTask('createWebhookHandler, telemetry: createTelemetry({ api }) (no SDK)', createWebhookHandler({ ...handlerOptions(), telemetry: createTelemetry({ api }) }))],
  target: { kind: 'max-time-ratio', value: 1.02, subject: 'createWebhookHandler, telemetry: createTelemetry({ api }) (no SDK)' },
  notes: () => [
    `Each call hands ${BATCH} XML delivery receipts (packages/core/test/fixtures/delivery-receipt/single-delivered.xml, each with a ticket of its own) to \`handler.handle()\` one after the other, as an adapter does after reading the body; both receivers keep their duplicate store in memory.`,
    'With the API but no SDK and no logger, nothing would keep a report (`telemetry.reporting()` is false: the global tracer provider still delegates to the no-op one, the meter is the no-op meter), so the receiver makes none; it checks again for each callback, so an SDK registered later is seen.',
    'This in-process measure is the one the ≤ 1.02× target is judged by: the HTTP benches of the Express and Nest receivers (below) show the same comparison over loopback, where single rounds move by ±30 % and cannot resolve 2 %.',
  ],
};
