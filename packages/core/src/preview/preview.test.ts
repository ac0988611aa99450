import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { decodePreview, encodePreview, type Preview } from './preview.js';

const decodeFixture = (path: string): Preview => {
  const result = decodePreview(loadFixture(path), path.endsWith('.json') ? 'json' : 'xml');
  if (!result.ok) throw new Error(`${path}: ${result.error.description}`);
  return result.value;
};

const US: Preview = {
  destination: { countryCode: 1, alpha2Code: 'US', phoneNumber: '12065551234', wireless: true },
  mobileOperator: { mobileOperatorId: 383, mobileOperatorName: 'AT&T Wireless', textLength: 160, binaryLength: 140, unicodeLength: 70, wapPush: true },
};

const GB_LANDLINE: Preview = {
  destination: { countryCode: 44, alpha2Code: 'GB', phoneNumber: '441632960961', wireless: false },
  mobileOperator: { mobileOperatorId: 1020, mobileOperatorName: 'BT Landline', textLength: 160, binaryLength: 140, unicodeLength: 70, wapPush: false },
};

describe('decodePreview on real payloads', () => {
  it.each([
    ['preview/us-wireless.xml', US],
    ['preview/us-wireless.json', US],
    ['preview/published-spelling.xml', GB_LANDLINE],
    ['preview/published-spelling.json', GB_LANDLINE],
  ])('%s', (path, expected) => {
    expect(decodeFixture(path)).toStrictEqual(expected);
  });

  it('takes <operator> and alpha2code as the published example spells them, and prefers the schema names', () => {
    const xml = '<preview><destination phoneNumber="1" alpha2code="GB" alpha2Code="US"/><operator mobileOperatorId="1"/><mobileOperator mobileOperatorId="2"/></preview>';
    expect(decodePreview(xml, 'xml')).toStrictEqual({
      ok: true,
      value: { destination: { phoneNumber: '1', alpha2Code: 'US' }, mobileOperator: { mobileOperatorId: 2 } },
    });
  });
});

describe('decodePreview rejections', () => {
  it.each([
    ['<preview><destination phoneNumber="1"/></preview>', 'missing-member', 'preview.mobileOperator', 'Required member preview.mobileOperator is missing'],
    ['<preview><mobileOperator mobileOperatorId="1"/></preview>', 'missing-member', 'preview.destination', 'Required member preview.destination is missing'],
    [
      '<preview><destination phoneNumber="1" wireless="maybe"/><mobileOperator mobileOperatorId="1"/></preview>',
      'invalid-member',
      'preview.destination.wireless',
      'Member preview.destination.wireless must be true or false',
    ],
    [
      '<preview><destination phoneNumber="1"/><operator mobileOperatorId="1" textLength="160 chars"/></preview>',
      'invalid-member',
      'preview.mobileOperator.textLength',
      'Member preview.mobileOperator.textLength must be a non-negative integer',
    ],
    [
      '<preview><destination phoneNumber="1"/><mobileOperator mobileOperatorName="x"/></preview>',
      'missing-member',
      'preview.mobileOperator.mobileOperatorId',
      'Required member preview.mobileOperator.mobileOperatorId is missing',
    ],
    [
      '<preview><destination countryCode="+1" phoneNumber="1"/><mobileOperator mobileOperatorId="1"/></preview>',
      'invalid-member',
      'preview.destination.countryCode',
      'Member preview.destination.countryCode must be a non-negative integer',
    ],
  ])('%s', (body, code, path, description) => {
    expect(decodePreview(body, 'xml')).toStrictEqual({ ok: false, error: { code, description, path } });
  });

  it('names the member at fault in JSON', () => {
    expect(decodePreview('{"preview": {"destination": {"phoneNumber": "1", "wireless": 1}, "operator": {"mobileOperatorId": 383}}}', 'json')).toStrictEqual({
      ok: false,
      error: { code: 'invalid-member', description: 'Member preview.destination.wireless must be true or false', path: 'preview.destination.wireless' },
    });
  });

  it('refuses an error record where a lookup result is expected', () => {
    expect(decodePreview(loadFixture('error-record/420-lookup.xml'), 'xml')).toStrictEqual({
      ok: false,
      error: { code: 'wrong-resource', description: 'Payload root is error, not preview' },
    });
  });
});

describe('encodePreview', () => {
  it('writes mobileOperator and alpha2Code in the preview namespace', () => {
    expect(encodePreview(GB_LANDLINE, 'xml')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>' +
        '<preview xmlns="http://sms.openmarket.com/v4/preview">' +
        '<destination countryCode="44" alpha2Code="GB" phoneNumber="441632960961" wireless="false"/>' +
        '<mobileOperator mobileOperatorId="1020" mobileOperatorName="BT Landline" textLength="160" binaryLength="140" unicodeLength="70" wapPush="false"/>' +
        '</preview>',
    );
  });

  it('writes Booleans and numbers as JSON values', () => {
    expect(JSON.parse(encodePreview(decodeFixture('preview/published-spelling.json'), 'json'))).toStrictEqual({ preview: GB_LANDLINE });
  });
});
