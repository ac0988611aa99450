/** Routing and encoding of sends, in-process: operators, the global route, platform failures, content types. */
import { decodeMtStatus, encodeMtRequest, type MtRequest, type MtStatus } from '@smsv4/core';
import { describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type Sandbox } from '../src/index.js';
import { auth } from './helpers.js';

async function sendAndSettle(sandbox: Sandbox, clock: ReturnType<typeof createManualClock>, mt: MtRequest): Promise<MtStatus> {
  const sent = await sandbox.fetch(
    new Request('http://sandbox.test/sms/v4/mt', { method: 'POST', headers: { authorization: auth(), 'content-type': 'application/json' }, body: encodeMtRequest(mt, 'json') }),
  );
  expect(sent.status).toBe(202);
  const ticketId = (sent.headers.get('location') ?? '').split('/').pop();
  await clock.advance(5000);
  const res = await sandbox.fetch(new Request(`http://sandbox.test/sms/v4/mt/${ticketId}/status`, { headers: { authorization: auth() } }));
  const status = decodeMtStatus(await res.text(), 'xml');
  if (!status.ok) throw new Error(status.error.description);
  return status.value;
}

const text = (address: string, content = 'hello', extra: Partial<MtRequest> = {}): MtRequest => ({ destination: { address }, message: { type: 'text', content }, ...extra });

describe('routing', () => {
  it('delivers outside the operator table through the global route, without an operator ID', async () => {
    const clock = createManualClock();
    const sandbox = createSandbox({ clock });
    const status = await sendAndSettle(sandbox, clock, text('4915123456789'));
    expect(status.code).toBe(4);
    expect(status.mobileOperatorId).toBeUndefined();
    expect(status.destination).toEqual({ address: '4915123456789', alpha2Code: 'DE' });
  });

  it('fails outside the table with 345 when the global route is off', async () => {
    const clock = createManualClock();
    const sandbox = createSandbox({ clock, globalRoute: null });
    expect((await sendAndSettle(sandbox, clock, text('4915123456789'))).code).toBe(345);
    expect((await sendAndSettle(sandbox, clock, text('447700900123'))).code).toBe(4);
  });

  it('fails with 341 for a mobileOperatorId the table does not have, and routes by a known one', async () => {
    const clock = createManualClock();
    const sandbox = createSandbox({ clock });
    const unknown = await sendAndSettle(sandbox, clock, { destination: { address: '14155550100', mobileOperatorId: 99999 }, message: { type: 'text', content: 'x' } });
    expect(unknown).toMatchObject({ code: 341, description: 'Mobile operator ID does not exist' });
    const named = await sendAndSettle(sandbox, clock, { destination: { address: '14155550100', mobileOperatorId: 79 }, message: { type: 'text', content: 'x' } });
    expect(named).toMatchObject({ code: 4, mobileOperatorId: 79 });
  });

  it('records the encoding and parts of each content type', async () => {
    const clock = createManualClock();
    const sandbox = createSandbox({ clock });
    await sendAndSettle(sandbox, clock, { destination: { address: '14155550100' }, message: { type: 'text', content: 'Привет '.repeat(15), mlc: 'segment' } });
    await sendAndSettle(sandbox, clock, { destination: { address: '14155550100' }, message: { type: 'hexEncodedText', charset: 'UTF-16', content: '004800690021' } });
    await sendAndSettle(sandbox, clock, { destination: { address: '14155550100' }, message: { type: 'binary', content: 'C0FFEE' } });
    await sendAndSettle(sandbox, clock, { destination: { address: '14155550100' }, message: { type: 'wapPush', content: 'Open me', url: 'https://example.com/x' } });
    const [wap, binary, hex, ucs2] = sandbox.snapshot().messages;
    expect([ucs2?.encoding, ucs2?.parts.length]).toEqual(['UCS-2', 2]);
    expect(ucs2?.parts.map((p) => p.text).join('')).toBe('Привет '.repeat(15));
    expect([hex?.encoding, hex?.parts.length, hex?.content]).toEqual(['UCS-2', 1, '004800690021']);
    expect([binary?.encoding, binary?.parts.length]).toEqual(['binary', 1]);
    expect([wap?.type, wap?.parts.length, wap?.summary.code]).toEqual(['wapPush', 1, 4]);
  });

  it('applies an operator’s lower single-part limit (Sample Three UK: 153 characters)', async () => {
    const clock = createManualClock();
    const sandbox = createSandbox({ clock });
    expect((await sendAndSettle(sandbox, clock, text('447713000000', 'x'.repeat(153)))).code).toBe(4);
    expect((await sendAndSettle(sandbox, clock, text('447713000000', 'x'.repeat(154)))).code).toBe(351);
  });
});
