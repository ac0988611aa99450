/**
 * The matchers in both runners' `expect`: vitest's (extended by the setup file `src/vitest.ts`) and
 * jest's (the `expect` package jest is built on, extended here), with the exact messages.
 */
import { buildSendRequest, encodeMtRequest, type MtRequest } from '@smsv4/core';
import { expect as jestExpect } from 'expect';
import { describe, expect, it } from 'vitest';
import { buildDeliveryReceipt, buildMultipartReceipts } from '../builders/delivery-receipt.js';
import { buildErrorRecord, buildMtRequest } from '../builders/documents.js';
import { smsMatchers } from './sms-matchers.js';

jestExpect.extend(smsMatchers);

const valid: MtRequest = { destination: { address: '14155550100' }, message: { type: 'text', content: 'Your code is 1234' } };
const plusAddress = { mobileTerminate: { destination: { address: '+14155550100' }, message: { type: 'text', content: 'Hi' } } };

/** The message of a failed assertion. */
function failure(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message.replace(/\u001b\[[0-9;]*m/g, '');
  }
  throw new Error('the assertion passed');
}

const RUNNERS = [
  ['vitest', expect as unknown as typeof jestExpect],
  ['jest', jestExpect],
] as const;

describe.each(RUNNERS)('in %s', (_runner, expect) => {
  it('toBeValidMtRequest takes bodies, payloads, requests and objects', () => {
    expect(encodeMtRequest(valid, 'json')).toBeValidMtRequest();
    expect(encodeMtRequest(valid, 'xml')).toBeValidMtRequest();
    expect(new TextEncoder().encode(encodeMtRequest(valid, 'xml'))).toBeValidMtRequest();
    expect(buildMtRequest(valid, { format: 'xml', prefix: 'mt' })).toBeValidMtRequest();
    expect(buildSendRequest({ endpoints: { baseUrl: 'http://127.0.0.1:4010' }, credentials: { accountId: 'a', password: 'b' } }, valid, 'xml')).toBeValidMtRequest();
    expect(valid).toBeValidMtRequest();
    expect({ mobileTerminate: valid }).toBeValidMtRequest();
    expect(plusAddress).not.toBeValidMtRequest();
    expect('{"mobileTerminate": {').not.toBeValidMtRequest();
  });

  it('toBeValidMtRequest names the rule, the member and its value', () => {
    expect(failure(() => expect(plusAddress).toBeValidMtRequest())).toContain(
      [
        'Expected a valid MT request, but the service would answer 540:',
        '  540 Invalid request - destination address value is invalid',
        '  rule:   destinationAddress (MT_INVALID.destinationAddress)',
        '  member: destination.address = "+14155550100"',
      ].join('\n'),
    );
    const xml = '<mobileTerminate><destination address="14155550100"/><message type="text" mlc="split"><content>Hi</content></message></mobileTerminate>';
    expect(failure(() => expect(xml).toBeValidMtRequest())).toContain('540 Invalid request - mlc value is invalid\n  rule:   mlc (MT_INVALID.mlc)\n  member: message.mlc');
    expect(failure(() => expect(valid).not.toBeValidMtRequest())).toContain('but it is valid: the service would accept it.');
    expect(failure(() => expect(42).toBeValidMtRequest())).toContain('42 is not an MT request');
  });

  it('toFailWith540 takes the description in full, short, as a rule key or a pattern', () => {
    expect(plusAddress).toFailWith540('Invalid request - destination address value is invalid');
    expect(plusAddress).toFailWith540('destination address value is invalid');
    expect(plusAddress).toFailWith540('destinationAddress');
    expect(plusAddress).toFailWith540(/destination address/);
    expect(plusAddress).not.toFailWith540('message content must have a value');
    expect({ ...valid, message: { type: 'text', content: '' } }).toFailWith540('message content must have a value');
    expect('<mobileTerminate>').toFailWith540('invalid XML in the payload');
  });

  it('toFailWith540 says which 540 came instead, or that the request is valid', () => {
    expect(failure(() => expect(plusAddress).toFailWith540('mlc value is invalid'))).toContain(
      'Expected 540 "mlc value is invalid", but the service would answer:\n  540 Invalid request - destination address value is invalid\n  rule:   destinationAddress',
    );
    expect(failure(() => expect(valid).toFailWith540('mlcValue'))).toContain('Expected 540 "mlcValue", but the request is valid: the service would accept it.');
    expect(failure(() => expect(valid).toFailWith540('mlc'))).toContain('Expected 540 "Invalid request - mlc value is invalid", but the request is valid');
  });

  it('toFailWith540 reads the service answer and error values', () => {
    const rejected = buildErrorRecord({ rule: 'sourceTon', format: 'json' });
    const answer = { status: rejected.httpStatus, headers: { 'content-type': rejected.contentType }, body: rejected.body };
    expect(answer).toFailWith540('source ton value is invalid');
    expect({ code: '540', description: 'Invalid request - source ton value is invalid' }).toFailWith540('sourceTon');
    const locked = buildErrorRecord({ code: '432' });
    expect(failure(() => expect({ status: 403, headers: { 'content-type': locked.contentType }, body: locked.body }).toFailWith540('sourceTon'))).toContain(
      'Expected 540 "Invalid request - source ton value is invalid"\nReceived an answer of HTTP 403: 432 Account blocked for SMS',
    );
    expect(failure(() => expect({ status: 202, headers: { location: 'http://x/sms/v4/mt/44101-0922I-13413-21GDL' }, body: '' }).toFailWith540('sourceTon'))).toContain('Received an accepted send (HTTP 202)');
  });

  it('toBeDeliveryReceipt decodes and compares the members given', () => {
    const receipt = buildDeliveryReceipt({ ticketId: '44101-0922I-13413-21GDL', code: 4, prefix: 'mt', layout: 'nested' });
    expect(receipt).toBeDeliveryReceipt();
    expect(receipt.body).toBeDeliveryReceipt({ ticketId: '44101-0922I-13413-21GDL', code: 4, deliveryDate: expect.any(String), destination: { alpha2Code: 'US' } });
    expect({ body: receipt.body, headers: { 'Content-Type': 'application/xml' } }).toBeDeliveryReceipt({ code: 4 });
    expect(receipt.value).toBeDeliveryReceipt({ ticketId: '44101-0922I-13413-21GDL' });
    expect({ receipt: receipt.body }).toEqual({ receipt: expect.toBeDeliveryReceipt({ code: 4 }) });
    const { receipts } = buildMultipartReceipts({ parts: [4, 811], format: 'json' });
    expect(receipts[1]).toBeDeliveryReceipt({ segmentNumber: 2, totalSegments: 2, code: 811 });
    expect(receipts[1]).not.toBeDeliveryReceipt({ code: 4 });
    expect('<mobileOriginate/>').not.toBeDeliveryReceipt();
  });

  it('toBeDeliveryReceipt names the decoder error, or each member that differs', () => {
    const receipt = buildDeliveryReceipt({ ticketId: '44101-0922I-13413-21GDL', code: 811 });
    expect(failure(() => expect(receipt).toBeDeliveryReceipt({ code: 4, segmentNumber: 1, source: { ton: 5 } }))).toContain(
      [
        'A delivery receipt (ticket 44101-0922I-13413-21GDL, code 811 (Message expired before it reached handset)), but members differ:',
        '  mtStatus.code: expected 4 (Message delivered), received 811 (Message expired before it reached handset)',
        '  mtStatus.segmentNumber: expected 1, received undefined',
        '  source.ton: expected 5, received 3',
      ].join('\n'),
    );
    const broken = receipt.body.replace('44101-0922I-13413-21GDL', 'no ticket');
    expect(failure(() => expect(broken).toBeDeliveryReceipt())).toMatch(/Expected a delivery receipt, but it does not decode: invalid-member: .*ticketId.*\n {2}member: deliveryReceipt\.mtStatus\.ticketId/);
    expect(failure(() => expect('{"error":{"code":"540","description":"x"}}').toBeDeliveryReceipt())).toContain('it does not decode: wrong-resource');
    expect(failure(() => expect(receipt).not.toBeDeliveryReceipt({ code: 811 }))).toContain('Expected no delivery receipt with these members, but received one: ticket 44101-0922I-13413-21GDL');
  });
});
