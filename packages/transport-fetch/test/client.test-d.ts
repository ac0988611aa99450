/** Type tests: the inputs and results of every operation are core's types; a wrong member does not compile. */
import type { MtStatus, Preview } from '@smsv4/core';
import { describe, expectTypeOf, it } from 'vitest';
import { createClient, type GetStatusResult, type LookupResult, type SendResult, type SmsApiError, type SmsApiErrorKind } from '../src/index.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:4010', accountId: 'sandbox', password: 'sandbox-password' });

describe('send', () => {
  it('takes an MT request and resolves to the ticket ID and the HTTP facts', () => {
    expectTypeOf(client.send({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi' } })).resolves.toEqualTypeOf<SendResult>();
    expectTypeOf<SendResult['ticketId']>().toEqualTypeOf<string>();
    expectTypeOf<SendResult['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SendResult['response']>().toEqualTypeOf<Response>();
  });

  it('refuses a wrong member', () => {
    // @ts-expect-error 'txt' is not a message type
    void client.send({ destination: { address: '14155550100' }, message: { type: 'txt', content: 'Hi' } });
    // @ts-expect-error 'recipient' is not a member of an MT request
    void client.send({ recipient: { address: '14155550100' }, destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi' } });
    // @ts-expect-error the destination is required
    void client.send({ message: { type: 'text', content: 'Hi' } });
    // @ts-expect-error validityPeriod is a number of seconds
    void client.send({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi', validityPeriod: '3600' } });
    // @ts-expect-error 'mlc' takes reject, truncate or segment
    void client.send({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi', mlc: 'split' } });
  });
});

describe('status, lookup, Invoke Service', () => {
  it("resolve to core's documents", () => {
    expectTypeOf<GetStatusResult['status']>().toEqualTypeOf<MtStatus>();
    expectTypeOf<LookupResult['preview']>().toEqualTypeOf<Preview>();
  });

  it('refuse wrong members', () => {
    // @ts-expect-error a ticket ID is a string
    void client.getStatus(44101);
    // @ts-expect-error the phone number of Invoke Service is a string of digits (16 digits do not fit a number)
    void client.invokeService('abc', { endUser: { phoneNumber: 14155550100 } });
    // @ts-expect-error 'global' is not a variable scope
    void client.invokeService('abc', { endUser: { phoneNumber: '14155550100' }, variables: { global: { A: 'b' } } });
  });
});

describe('options and errors', () => {
  it('refuse unknown options and formats', () => {
    // @ts-expect-error 'yaml' is not a format
    createClient({ baseUrl: 'http://x', accountId: 'a', password: 'p', format: 'yaml' });
    // @ts-expect-error the password is required
    createClient({ baseUrl: 'http://x', accountId: 'a' });
    // @ts-expect-error 'retries' is not an option
    createClient({ baseUrl: 'http://x', accountId: 'a', password: 'p', retries: 3 });
  });

  it('expose a closed set of kinds', () => {
    expectTypeOf<SmsApiError['kind']>().toEqualTypeOf<SmsApiErrorKind>();
    expectTypeOf<SmsApiErrorKind>().toEqualTypeOf<'invalid-request' | 'api-error' | 'network' | 'timeout' | 'unexpected-response' | 'aborted'>();
    expectTypeOf<SmsApiError['code']>().toEqualTypeOf<string | number | undefined>();
  });
});
