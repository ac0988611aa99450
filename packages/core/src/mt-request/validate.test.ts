import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { CHARSETS, INTERACTIONS, MESSAGE_TYPES, MLC_VALUES, MT_LIMITS, RECEIPT_REQUESTED_VALUES, SOURCE_TONS } from './members.js';
import type { MtRequest } from './schema.js';
import { mtRequestError, validateMtRequest } from './validate.js';

const full = () => JSON.parse(loadFixture('mt-request/valid/expected/text-full.json')) as MtRequest;

describe('validateMtRequest', () => {
  it('accepts a decoded request and returns an equal, separate value', () => {
    const value = full();
    const result = validateMtRequest(value);
    expect(result).toStrictEqual({ ok: true, value });
    expect(result.ok && result.value).not.toBe(value);
  });

  it('accepts the wire form and normalises it', () => {
    const wire = JSON.parse(loadFixture('mt-request/valid/json/string-scalars.json')).mobileTerminate;
    expect(validateMtRequest(wire)).toStrictEqual({ ok: true, value: JSON.parse(loadFixture('mt-request/valid/expected/string-scalars.json')) });
  });

  it('takes the inside of mobileTerminate, not the wrapper', () => {
    const wrapped = { mobileTerminate: full() };
    expect(validateMtRequest(wrapped)).toEqual({ ok: false, error: mtRequestError('destinationAddressRequired') });
  });

  it('reports the first rule broken, with the catalogue description', () => {
    const value = { ...full(), message: { ...full().message, mlc: 'split' } } as unknown;
    expect(validateMtRequest(value)).toEqual({
      ok: false,
      error: { code: '540', description: 'Invalid request - mlc value is invalid', rule: 'mlc' },
    });
  });

  it('answers a value that is not an object with the invalid JSON description, without throwing', () => {
    for (const value of [undefined, null, 'mt', 42, true, [], [full()]]) {
      expect(validateMtRequest(value)).toEqual({
        ok: false,
        error: { code: '540', description: 'Invalid request - invalid JSON in the payload', rule: 'invalidJson' },
      });
    }
  });

  it('checks the charset of hexEncodedText content and the size of text content in octets', () => {
    const hex: MtRequest = { destination: { address: '447700900123' }, message: { type: 'hexEncodedText', charset: 'Latin-1', content: 'E9' } };
    expect(validateMtRequest(hex).ok).toBe(true);
    for (const charset of ['GSM', 'UTF-8', 'UTF-16'] as const) {
      expect(validateMtRequest({ ...hex, message: { ...hex.message, charset } }), charset).toEqual({ ok: false, error: mtRequestError('contentInvalid') });
    }
    const text: MtRequest = { destination: { address: '447700900123' }, message: { type: 'text', content: '😀'.repeat(670) } };
    expect(validateMtRequest(text).ok).toBe(true);
    expect(validateMtRequest({ ...text, message: { type: 'text', content: `${text.message.content}a` } })).toEqual({ ok: false, error: mtRequestError('contentTooLong') });
  });
});

describe('the MT request member table', () => {
  it('holds the spec values', () => {
    expect(INTERACTIONS).toEqual(['one-way', 'two-way']);
    expect(MESSAGE_TYPES).toEqual(['text', 'hexEncodedText', 'binary', 'wapPush']);
    expect(CHARSETS).toEqual(['GSM', 'Latin-1', 'UTF-8', 'UTF-16']);
    expect(MLC_VALUES).toEqual(['reject', 'truncate', 'segment']);
    expect(SOURCE_TONS).toEqual([1, 3, 5]);
    expect(RECEIPT_REQUESTED_VALUES).toEqual(['final']);
  });

  it('holds the spec limits; 2680 octets are 20 parts of 134', () => {
    expect(MT_LIMITS).toMatchObject({
      contentMinBytes: 1,
      contentMaxBytes: 2680,
      destinationAddressMinDigits: 5,
      destinationAddressMaxDigits: 20,
      sourceAddressMinLength: 1,
      sourceAddressMaxLength: 20,
      validityPeriodMaxSeconds: 259200,
      noteMaxLength: 200,
      programIdMinLength: 1,
      programIdMaxLength: 50,
      urlMinLength: 12,
      urlMaxLength: 2048,
    });
    expect(MT_LIMITS.contentMaxBytes).toBe(20 * (140 - 6));
  });
});
