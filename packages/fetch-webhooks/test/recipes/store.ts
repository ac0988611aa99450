// The recipes' database. In the tests every save is a POST to a collector the test process runs on
// loopback (COLLECTOR_URL is set when the recipe is bundled); the collector answers 500 to make a
// save fail, as a database that is down would.
import type { DeliveryReceipt, InboundMessage } from '@smsv4/fetch-webhooks';

declare const COLLECTOR_URL: string;

async function save(kind: 'receipt' | 'inbound', value: unknown): Promise<void> {
  const response = await fetch(`${COLLECTOR_URL}/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
  if (!response.ok) throw new Error(`the store answered ${response.status}`);
}

/** Stores one delivery receipt. */
export const saveReceipt = (receipt: DeliveryReceipt): Promise<void> => save('receipt', receipt);
/** Stores one inbound message. */
export const saveInbound = (message: InboundMessage): Promise<void> => save('inbound', message);
