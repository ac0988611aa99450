import { describe, expect, it } from 'vitest';
import { DELIVERY_STATES, INVOKE_ERRORS, LOOKUP_CREDENTIALS_DESCRIPTION, SMS_ERRORS } from './catalogue.js';

// The spec's tables, restated here on purpose: everything else reads the catalogue, so only an
// independent copy catches a description that drifted from the spec's text.
const SPEC_SMS: Record<string, string> = {
  '420': 'Invalid account ID or account password',
  '431': 'Account not provisioned for SMS',
  '432': 'Account blocked for SMS',
  '577': 'Account not provisioned to use SMS demo short code',
  '578': 'Exceeded the time limit for using SMS demo',
  '579': 'Destination address not in whitelist for SMS demo',
  '580': 'Exceeded the max number of demo requests',
  '591': 'Exceeded the monthly limit on global MT messaging',
  '592': 'Account not provisioned for global one- or two-way SMS',
  '711': 'Ticket ID not found',
  '1000': 'Temporary error processing request',
  '1010': 'Temporary system error',
};

const SPEC_INVOKE: Record<number, string> = {
  1000: 'Error processing the request; contact support',
  1010: 'Error processing the request; retry',
  12001: 'Account is not authorized to use this API',
  12002: 'Invalid JSON in the payload',
  12003: 'Invalid HTTP method',
  12004: 'Invalid API version',
  12005: 'Invalid query parameter',
  12006: 'Invalid request URL',
  12007: 'Request body exceeds the maximum allowable limit',
  12008: 'Request was blocked',
  12009: 'Username and/or password is invalid',
  12010: 'Unable to authenticate request',
};

describe('the error catalogue against the spec', () => {
  it.each(Object.entries(SPEC_SMS))('SMS %s has the spec description', (code, description) => {
    expect(SMS_ERRORS[code as keyof typeof SMS_ERRORS].description).toBe(description);
  });

  it.each(Object.entries(SPEC_INVOKE))('Invoke Service %s has the spec description', (code, description) => {
    expect(INVOKE_ERRORS[Number(code) as keyof typeof INVOKE_ERRORS].description).toBe(description);
  });

  it('keeps the lookup spelling of 420 and the state descriptions of the spec', () => {
    expect(LOOKUP_CREDENTIALS_DESCRIPTION).toBe('Invalid Account ID or account password');
    expect(DELIVERY_STATES[4]?.description).toBe('Message delivered');
    expect(DELIVERY_STATES[811]?.description).toBe('Message expired before it reached handset');
    expect(DELIVERY_STATES[830]?.description).toBe('Partial message delivery failure');
    expect(DELIVERY_STATES[831]?.description).toBe('Awaiting complete message delivery status');
  });

  it('uses 400 for 540 (the spec example), 500-599 for 1000 and 1010, and the real Invoke statuses', () => {
    expect(SMS_ERRORS['540'].httpStatus).toBe(400);
    for (const code of ['1000', '1010'] as const) expect(SMS_ERRORS[code].httpStatus).toBeGreaterThanOrEqual(500);
    for (const code of ['420', '431', '432', '577', '578', '579', '580', '591', '592'] as const) {
      expect(SMS_ERRORS[code].httpStatus).toBeGreaterThanOrEqual(400);
      expect(SMS_ERRORS[code].httpStatus).toBeLessThan(500);
    }
    expect([INVOKE_ERRORS[1000].httpStatus, INVOKE_ERRORS[1010].httpStatus, INVOKE_ERRORS[12001].httpStatus, INVOKE_ERRORS[12002].httpStatus, INVOKE_ERRORS[12003].httpStatus]).toEqual([500, 500, 403, 400, 405]);
  });
});
