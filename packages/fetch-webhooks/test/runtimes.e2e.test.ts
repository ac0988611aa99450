/**
 * The recipes of the guide (apps/docs/guide/receive-fetch.md) in real runtimes, end to end with @smsv4/sandbox: the emulated service sends
 * real receipts and inbound messages (XML and JSON, single and multipart) to the recipe running in
 * Node (Hono, a Next.js route handler), Vercel's Edge Runtime, Bun, Deno and workerd, and retries
 * what is not answered 2xx. A runtime whose npm package installed no binary on this machine is
 * skipped with the reason; one that is there and fails, fails.
 */
import type { MtRequest } from '@smsv4/core';
import { postFixture, startSandbox, type TestSandbox } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers.js';
import { RUNTIMES, startCollector, workFolder, type Collector, type RunningRecipe } from './runtimes/harness.js';

for (const runtime of RUNTIMES) {
  if (runtime.unavailable !== undefined) console.warn(`${runtime.name}: skipped, ${runtime.unavailable}`);
}

// An optional runtime that is not there names itself and why in its group's title, which the test
// summary prints with the skipped groups.
const title = (r: (typeof RUNTIMES)[number]): string => (r.unavailable === undefined ? r.name : `${r.name} (optional, skipped: ${r.unavailable})`);

describe.each(RUNTIMES.map((r) => [title(r), r] as const))('%s', (_name, runtime) => {
  let sms: TestSandbox;
  let collector: Collector;
  let recipe: RunningRecipe;
  const work = workFolder();

  beforeAll(async () => {
    if (runtime.unavailable !== undefined) return;
    collector = await startCollector();
    recipe = await runtime.start(collector.url, work.dir);
    sms = await startSandbox({ callbackTimeoutMs: 5000, teardown: 'manual' });
  }, 60_000);

  afterAll(async () => {
    await sms?.close();
    await recipe?.stop();
    await collector?.close();
    work.remove();
  });

  const run = it.skipIf(runtime.unavailable !== undefined);

  async function send(destination: string, content: string, format: 'json' | 'xml', extra: Partial<MtRequest['message']> = {}): Promise<string> {
    const mt: MtRequest = {
      destination: { address: destination },
      message: { type: 'text', content, ...extra },
      delivery: { receiptRequested: 'final', url: recipe.url },
    };
    const sent = await sms.send(mt, { format });
    expect(sent.ok).toBe(true);
    return sent.ok ? sent.value.ticketId : '';
  }

  const attempts = (ticketId: string) => sms.sandbox.snapshot().callbacks.filter((c) => c.ticketId === ticketId);

  run('takes a single-part XML receipt and a 3-part JSON one, each answered 200 once', async () => {
    const single = await send('14155550100', 'Your code is 1234', 'xml');
    const multi = await send('14155550101', 'm'.repeat(400), 'json', { mlc: 'segment' });
    await sms.advance(2000);
    await eventually(() => (collector.receipts.filter((r) => r.mtStatus.ticketId === multi).length === 3 ? true : undefined));
    await eventually(() => collector.receipts.find((r) => r.mtStatus.ticketId === single));
    expect(collector.receipts.find((r) => r.mtStatus.ticketId === single)?.mtStatus).toMatchObject({ code: 4, description: 'Message delivered' });
    expect(collector.receipts.filter((r) => r.mtStatus.ticketId === multi).map((r) => r.mtStatus.segmentNumber).sort()).toEqual([1, 2, 3]);
    await eventually(() => (attempts(single)[0]?.outcome === 'delivered' ? true : undefined));
    expect(attempts(single).map((a) => [a.httpStatus, a.responseBody])).toEqual([[200, '']]);
  });

  run('answers 500 while the store is down, and stores the retry exactly once', async () => {
    const ticketId = await send('14155550103', 'retry me', 'xml');
    collector.failNext.set(ticketId, 1);
    await sms.advance(1000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
    expect(attempts(ticketId)[0]?.httpStatus).toBe(500);
    await sms.advance(10_000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
    expect(attempts(ticketId).map((a) => a.httpStatus)).toEqual([200, 500]);
    expect(collector.receipts.filter((r) => r.mtStatus.ticketId === ticketId)).toHaveLength(1);
  });

  run('takes a single-part JSON inbound message and reassembles a multipart XML one (16-bit reference)', async () => {
    const single = sms.sandbox.injectInbound({ from: '14155550110', to: '24273', text: 'STOP', url: recipe.url, format: 'json' });
    const text = 'Привет! Это длинное сообщение, которое не помещается в одну часть. '.repeat(3);
    const multi = sms.sandbox.injectInbound({ from: '14155550130', to: '24273', text, url: recipe.url, format: 'xml', referenceBits: 16 });
    expect(multi.ticketIds.length).toBeGreaterThan(1);
    const message = await eventually(() => collector.inbound.find((m) => m.source.address === '14155550130'));
    expect(message).toMatchObject({ text, complete: true, ticketIds: multi.ticketIds, concatenation: { referenceBits: 16 } });
    expect(await eventually(() => collector.inbound.find((m) => m.source.address === '14155550110'))).toMatchObject({ text: 'STOP', ticketIds: single.ticketIds });
    expect(collector.inbound.filter((m) => m.source.address === '14155550130')).toHaveLength(1);
  });

  run('answers a repeated receipt 200 without storing it again, and refuses what is not a callback', async () => {
    expect((await postFixture(recipe.url, 'receipt-single-delivered.xml')).status).toBe(200);
    expect((await postFixture(recipe.url, 'receipt-single-delivered.xml')).status).toBe(200);
    expect(collector.receipts.filter((r) => r.mtStatus.ticketId === '44101-0922I-13413-21GDL')).toHaveLength(1);
    expect((await postFixture(recipe.url, 'receipt-single-delivered.xml', { headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await postFixture(recipe.url, 'receipt-hostile-billion-laughs.xml')).status).toBe(400);
    const big = await fetch(recipe.url, { method: 'POST', headers: { 'content-type': 'application/xml', 'x-api-version': '4' }, body: 'x'.repeat(70_000) });
    expect(big.status).toBe(413);
    expect((await fetch(recipe.url)).status).toBe(405);
  });
});
