import { describe, expect, it } from 'vitest';
import { operationUrl, PRODUCTION_URLS } from './endpoints.js';
import { headerValue } from './headers.js';
import { isTicketId, ticketIdFromLocation } from './ticket-id.js';

describe('ticket IDs', () => {
  it.each(['44101-0922I-13413-21GDL', '03155-0331L-1439U-51SLFX', 'A-B'])('%s is a ticket ID', (id) => {
    expect(isTicketId(id)).toBe(true);
  });
  it.each(['', 'ABCDE', '-ABC', 'AB-', 'AB--CD', 'AB CD-EF', '../etc-passwd', 'A'.repeat(40) + '-' + 'B'.repeat(40), 42])('%j is not', (id) => {
    expect(isTicketId(id)).toBe(false);
  });
  it.each([
    ['https://smsc.openmarket.com/sms/v4/mt/44101-0922I-13413-21GDL', '44101-0922I-13413-21GDL'],
    ['/sms/v4/mt/03155-0331L-1439U-51SLFX/', '03155-0331L-1439U-51SLFX'],
    ['44101-0922I-13413-21GDL', '44101-0922I-13413-21GDL'],
    ['/sms/v4/mt/44101-0922I-13413-21GDL?x=1', '44101-0922I-13413-21GDL'],
    ['https://smsc.openmarket.com/sms/v4/mt/', undefined],
    ['/sms/v4/mt/%ZZ', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('Location %j → %j', (location, id) => {
    expect(ticketIdFromLocation(location)).toBe(id);
  });
});

describe('operationUrl', () => {
  it('uses the per-operation host when given, else the base URL with its own prefix', () => {
    const endpoints = { baseUrl: 'http://127.0.0.1:4010/prefix/', urls: { status: PRODUCTION_URLS.status } };
    expect(operationUrl(endpoints, 'send', '/sms/v4/mt')).toBe('http://127.0.0.1:4010/prefix/sms/v4/mt');
    expect(operationUrl(endpoints, 'status', '/sms/v4/mt/A-B/status')).toBe('https://mtstatus.openmarket.com/sms/v4/mt/A-B/status');
  });
  it('refuses a base URL that is not a URL', () => {
    expect(() => operationUrl({ baseUrl: 'not a url' }, 'send', '/x')).toThrow(TypeError);
  });
});

describe('headerValue', () => {
  it('reads Web Headers and plain records case-insensitively', () => {
    expect(headerValue(new Headers({ 'X-Request-Id': 'r1' }), 'x-request-id')).toBe('r1');
    expect(headerValue({ 'X-Request-Id': 'r2' }, 'x-request-id')).toBe('r2');
    expect(headerValue({ 'set-cookie': ['a', 'b'] }, 'Set-Cookie')).toBe('a, b');
    expect(headerValue({}, 'location')).toBeUndefined();
    expect(headerValue({ 'content-length': 12 }, 'Content-Length')).toBe('12');
    expect(headerValue({ 'x-api-version': undefined, 'X-Api-Version': '4' }, 'x-api-version')).toBeUndefined();
    // Both spellings (no Node server makes such a record): the one in lower case is read.
    expect(headerValue({ 'Content-Type': 'application/json', 'content-type': 'application/xml' }, 'content-type')).toBe('application/xml');
    expect(headerValue(Object.create({ location: '/inherited' }) as Record<string, string>, 'location')).toBeUndefined();
  });
});
