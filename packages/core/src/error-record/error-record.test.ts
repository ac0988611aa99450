import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { INVOKE_ERRORS, LOOKUP_CREDENTIALS_DESCRIPTION, MT_INVALID, SMS_ERRORS } from '../errors/catalogue.js';
import { decodeErrorRecord, encodeErrorRecord } from './error-record.js';
import { decodeInvokeErrorBody, encodeInvokeErrorBody } from './invoke-error-body.js';

describe('decodeErrorRecord on real payloads', () => {
  it.each([
    ['error-record/540-content-empty.json', '540', MT_INVALID.contentEmpty],
    ['error-record/540-content-empty.xml', '540', MT_INVALID.contentEmpty],
    ['error-record/711-ticket-not-found.json', '711', SMS_ERRORS['711'].description],
    ['error-record/711-ticket-not-found.xml', '711', SMS_ERRORS['711'].description],
    ['error-record/420-numeric-code.json', '420', SMS_ERRORS['420'].description],
    ['error-record/420-lookup.xml', '420', LOOKUP_CREDENTIALS_DESCRIPTION],
    ['error-record/1010-prefixed.xml', '1010', SMS_ERRORS['1010'].description],
  ])('%s', (path, code, description) => {
    expect(decodeErrorRecord(loadFixture(path), path.endsWith('.json') ? 'json' : 'xml')).toStrictEqual({ ok: true, value: { code, description } });
  });

  it('reads a numeric JSON code as its digits, so codes compare with the catalogue keys', () => {
    const result = decodeErrorRecord('{"error": {"code": 1010, "description": "Temporary system error"}}', 'json');
    expect(result.ok && result.value.code).toBe('1010');
    expect(result.ok && Object.hasOwn(SMS_ERRORS, result.value.code)).toBe(true);
  });
});

describe('decodeErrorRecord rejections', () => {
  it.each([
    ['{"error": {"description": "x"}}', 'json', 'missing-member', 'error.code', 'Required member error.code is missing'],
    ['{"error": {"code": "540"}}', 'json', 'missing-member', 'error.description', 'Required member error.description is missing'],
    ['{"error": {"code": "E540", "description": "x"}}', 'json', 'invalid-member', 'error.code', 'Member error.code must be a numeric code (digits)'],
    ['{"error": {"code": -540, "description": "x"}}', 'json', 'invalid-member', 'error.code', 'Member error.code must be a numeric code (digits)'],
    ['{"error": {"code": 5.4, "description": "x"}}', 'json', 'invalid-member', 'error.code', 'Member error.code must be a numeric code (digits)'],
    ['{"error": {"code": "", "description": "x"}}', 'json', 'invalid-member', 'error.code', 'Member error.code must be a numeric code (digits)'],
    ['{"error": {"code": "540", "description": ["x"]}}', 'json', 'invalid-member', 'error.description', 'Member error.description must be a string'],
    ['<error code="540"/>', 'xml', 'missing-member', 'error.description', 'Required member error.description is missing'],
    ['<error code="5 40" description="x"/>', 'xml', 'invalid-member', 'error.code', 'Member error.code must be a numeric code (digits)'],
  ] as const)('%s', (body, format, code, path, description) => {
    expect(decodeErrorRecord(body, format)).toStrictEqual({ ok: false, error: { code, description, path } });
  });

  it('refuses a status where an error record is expected', () => {
    expect(decodeErrorRecord(loadFixture('mt-status/accepted-no-namespace.xml'), 'xml')).toStrictEqual({
      ok: false,
      error: { code: 'wrong-resource', description: 'Payload root is mtStatus, not error' },
    });
  });
});

describe('encodeErrorRecord', () => {
  const record = { code: '540', description: MT_INVALID.contentTooLong };

  it('writes the JSON code as a string', () => {
    expect(encodeErrorRecord(record, 'json')).toBe('{"error":{"code":"540","description":"Invalid request - message content exceeds 2680 bytes"}}');
  });

  it('writes <error code description/> in the MT namespace by default', () => {
    expect(encodeErrorRecord(record, 'xml')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><error xmlns="http://sms.openmarket.com/v4/mt" code="540" description="Invalid request - message content exceeds 2680 bytes"/>',
    );
    expect(encodeErrorRecord(record, 'xml', { namespace: 'http://sms.openmarket.com/v4/preview' })).toContain('<error xmlns="http://sms.openmarket.com/v4/preview" ');
  });

  it('throws TypeError for a code that is not digits', () => {
    expect(() => encodeErrorRecord({ code: 'E1', description: 'x' }, 'json')).toThrow(
      new TypeError('not a valid error: Member error.code must be a numeric code (digits)'),
    );
  });
});

describe('Invoke Service error body', () => {
  it.each([
    ['error-record/invoke-12002.json', 12002, 'Invalid JSON in the payload - endUser.phoneNumber is missing'],
    ['error-record/invoke-1010.json', 1010, INVOKE_ERRORS[1010].description],
    ['error-record/invoke-12007.json', 12007, INVOKE_ERRORS[12007].description],
  ])('decodes %s with an integer code', (path, code, description) => {
    expect(decodeInvokeErrorBody(loadFixture(path))).toStrictEqual({ ok: true, value: { code, description } });
  });

  it('reads a code written as digits as its number', () => {
    expect(decodeInvokeErrorBody('{"error": {"code": "12001", "description": "Account is not authorized to use this API"}}')).toStrictEqual({
      ok: true,
      value: { code: 12001, description: INVOKE_ERRORS[12001].description },
    });
  });

  it('refuses a code that is not an integer, and XML', () => {
    expect(decodeInvokeErrorBody('{"error": {"code": "12002a", "description": "x"}}')).toStrictEqual({
      ok: false,
      error: { code: 'invalid-member', description: 'Member error.code must be a non-negative integer', path: 'error.code' },
    });
    expect(decodeInvokeErrorBody('<error code="12002" description="x"/>')).toStrictEqual({
      ok: false,
      error: { code: 'invalid-json', description: 'Invalid JSON in the payload' },
    });
  });

  it('encodes the code as a JSON integer', () => {
    expect(encodeInvokeErrorBody({ code: 12002, description: INVOKE_ERRORS[12002].description })).toBe(
      '{"error":{"code":12002,"description":"Invalid JSON in the payload"}}',
    );
    expect(() => encodeInvokeErrorBody({ code: 1.5, description: 'x' })).toThrow(TypeError);
  });
});
