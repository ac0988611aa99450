import { describe, expect, it } from 'vitest';
import { loadFixture, loadFixtureBytes } from '../../test/fixtures.js';
import { DELIVERY_STATES } from '../errors/catalogue.js';
import { XML_NAMESPACES } from '../xml/xml-document.js';
import { decodeMtStatus, encodeMtStatus, type MtStatus } from './mt-status.js';

const decodeFixture = (path: string): MtStatus => {
  const result = decodeMtStatus(loadFixture(path), path.endsWith('.json') ? 'json' : 'xml');
  if (!result.ok) throw new Error(`${path}: ${result.error.description}`);
  return result.value;
};

const SINGLE: MtStatus = {
  ticketId: '44101-0922I-13413-21GDL',
  deliveryDate: '2024-03-14T09:26:53.000Z',
  code: 4,
  description: 'Message delivered',
  mobileOperatorId: 383,
  note1: 'order-5567',
  destination: { address: '12065551234', mobileOperatorId: 383, alpha2Code: 'US' },
  source: { address: '24273', ton: 3 },
};

const PARTIAL_FAILURE: MtStatus = {
  ticketId: '03155-0331L-1439U-51SLFX',
  code: 830,
  description: 'Partial message delivery failure',
  mobileOperatorId: 77,
  note1: 'spring & summer <promo>',
  totalSegments: 3,
  destination: { address: '447700900123', mobileOperatorId: 77, alpha2Code: 'GB' },
  source: { address: 'OpenMarket', ton: 5 },
  segments: [
    { segmentNumber: 1, deliveryDate: '2024-03-14T09:26:53.000Z', code: 4, description: 'Message delivered' },
    { segmentNumber: 2, deliveryDate: '2024-03-14T09:26:54.120Z', code: 4, description: 'Message delivered' },
    { segmentNumber: 3, code: 811, description: 'Message expired before it reached handset' },
  ],
};

const AWAITING: MtStatus = {
  ticketId: '2213K-0122M-1347B-28U4E',
  code: 831,
  description: 'Awaiting complete message delivery status',
  mobileOperatorId: 383,
  totalSegments: 2,
  destination: { address: '12065551234', mobileOperatorId: 383, alpha2Code: 'US' },
  source: { address: '24273', ton: 3 },
  segments: [
    { segmentNumber: 1, deliveryDate: '2024-03-14T09:26:53Z', code: 4, description: 'Message delivered' },
    { segmentNumber: 2, code: 3, description: 'Message accepted by the mobile operator, awaiting receipt' },
  ],
};

const ONE_SEGMENT: MtStatus = {
  ticketId: '8A1C2-0412B-99QZ1-00KLM',
  code: 2,
  description: 'Message accepted',
  totalSegments: 1,
  segments: [{ segmentNumber: 1, code: 2, description: 'Message accepted' }],
};

describe('decodeMtStatus on real payloads', () => {
  it.each([
    ['mt-status/single-delivered.xml', SINGLE],
    ['mt-status/single-delivered.json', SINGLE],
    ['mt-status/multipart-partial-failure.xml', PARTIAL_FAILURE],
    ['mt-status/multipart-partial-failure.json', PARTIAL_FAILURE],
    ['mt-status/multipart-awaiting-prefixed-https.xml', AWAITING],
    ['mt-status/multipart-awaiting-segment-wrapper.json', AWAITING],
    ['mt-status/multipart-single-segment-object.json', ONE_SEGMENT],
    ['mt-status/multipart-bare-segment-object.json', ONE_SEGMENT],
    ['mt-status/accepted-no-namespace.xml', { ticketId: '8A1C2-0412B-99QZ1-00KLM', code: 2, description: 'Message accepted' }],
  ])('%s', (path, expected) => {
    expect(decodeFixture(path)).toStrictEqual(expected);
  });

  it('reads the same status from bytes, with or without a byte order mark', () => {
    const bytes = loadFixtureBytes('mt-status/single-delivered.xml');
    expect(decodeMtStatus(bytes, 'xml')).toStrictEqual({ ok: true, value: SINGLE });
    expect(decodeMtStatus(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]), 'xml')).toStrictEqual({ ok: true, value: SINGLE });
  });

  it('reports the multipart summary codes with the catalogue descriptions', () => {
    expect(decodeFixture('mt-status/multipart-partial-failure.xml').description).toBe(DELIVERY_STATES[830]?.description);
    expect(decodeFixture('mt-status/multipart-awaiting-prefixed-https.xml').description).toBe(DELIVERY_STATES[831]?.description);
  });

  it('reads the root in any namespace form: default http or https, prefixed, or none', () => {
    const attributes = 'ticketId="8A1C2-0412B-99QZ1-00KLM" code="2"';
    const expected = { ok: true, value: { ticketId: '8A1C2-0412B-99QZ1-00KLM', code: 2 } };
    for (const root of [
      `<mtStatus xmlns="http://sms.openmarket.com/v4/mt" ${attributes}/>`,
      `<mtStatus xmlns="https://sms.openmarket.com/v4/mt" ${attributes}/>`,
      `<ns2:mtStatus xmlns:ns2="http://sms.openmarket.com/v4/mt" ${attributes}/>`,
      `<mtStatus ${attributes}/>`,
    ]) {
      expect(decodeMtStatus(root, 'xml')).toStrictEqual(expected);
    }
  });

  it('ignores unknown attributes, elements and members', () => {
    const xml = '<mtStatus ticketId="8A1C2-0412B" code="2" extra="1"><destination address="1" foo="x"/><unknown a="b"/></mtStatus>';
    expect(decodeMtStatus(xml, 'xml')).toStrictEqual({ ok: true, value: { ticketId: '8A1C2-0412B', code: 2, destination: { address: '1' } } });
    const json = '{"mtStatus": {"ticketId": "8A1C2-0412B", "code": "2", "extra": {"x": 1}, "destination": {"address": "1", "foo": "x"}}}';
    expect(decodeMtStatus(json, 'json')).toStrictEqual({ ok: true, value: { ticketId: '8A1C2-0412B', code: 2, destination: { address: '1' } } });
  });

  it('takes JSON Booleans and numbers written as digit strings, and an empty XML element as an empty object', () => {
    expect(decodeMtStatus('<mtStatus ticketId="A1-B2" code="0"><source/></mtStatus>', 'xml')).toStrictEqual({
      ok: true,
      value: { ticketId: 'A1-B2', code: 0, source: {} },
    });
  });
});

describe('prototype-named members', () => {
  it('ignores __proto__, constructor and prototype members in JSON, and pollutes nothing', () => {
    const result = decodeMtStatus(loadFixture('mt-status/prototype-members.json'), 'json');
    expect(result).toStrictEqual({ ok: true, value: { ticketId: '44101-0922I-13413-21GDL', code: 4, destination: { address: '12065551234' } } });
    if (!result.ok) return;
    expect(Object.keys(result.value)).toStrictEqual(['ticketId', 'code', 'destination']);
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(result.value.destination)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores __proto__, constructor and prototype attributes in XML', () => {
    expect(decodeMtStatus(loadFixture('mt-status/prototype-attributes.xml'), 'xml')).toStrictEqual({
      ok: true,
      value: { ticketId: '44101-0922I-13413-21GDL', code: 4, destination: { address: '12065551234' } },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('decodeMtStatus rejections', () => {
  const missing = (path: string) => ({ ok: false, error: { code: 'missing-member', description: `Required member ${path} is missing`, path } });
  const invalid = (path: string, expected: string) => ({
    ok: false,
    error: { code: 'invalid-member', description: `Member ${path} must be ${expected}`, path },
  });
  const timestamp = (path: string, reason: string) => ({
    ok: false,
    error: { code: 'invalid-member', description: `Member ${path} must be an xs:dateTime with a time zone: ${reason}`, path },
  });
  const SYNTAX = 'expected YYYY-MM-DDThh:mm:ss, an optional fraction of a second and a time zone (Z or ±hh:mm)';

  it.each([
    ['<mtStatus code="4"/>', missing('mtStatus.ticketId')],
    ['<mtStatus ticketId="A1-B2"/>', missing('mtStatus.code')],
    ['<mtStatus ticketId="A1-B2" code=""/>', invalid('mtStatus.code', 'a non-negative integer')],
    ['<mtStatus ticketId="A1-B2" code="four"/>', invalid('mtStatus.code', 'a non-negative integer')],
    ['<mtStatus ticketId="A1-B2" code="-1"/>', invalid('mtStatus.code', 'a non-negative integer')],
    ['<mtStatus ticketId="A1-B2" code="4.0"/>', invalid('mtStatus.code', 'a non-negative integer')],
    ['<mtStatus ticketId="A1-B2" code=" 4"/>', invalid('mtStatus.code', 'a non-negative integer')],
    ['<mtStatus ticketId="A1-B2" code="99999999999999999"/>', invalid('mtStatus.code', 'a non-negative integer')],
    ['<mtStatus ticketId="A1-B2" code="9007199254740992"/>', invalid('mtStatus.code', 'a non-negative integer')],
    ['<mtStatus ticketId="A1 B2" code="4"/>', invalid('mtStatus.ticketId', 'a ticket ID (hyphen-separated groups of letters and digits)')],
    ['<mtStatus ticketId="A1B2" code="4"/>', invalid('mtStatus.ticketId', 'a ticket ID (hyphen-separated groups of letters and digits)')],
    [`<mtStatus ticketId="${'A'.repeat(40)}-${'B'.repeat(40)}" code="4"/>`, invalid('mtStatus.ticketId', 'a ticket ID (hyphen-separated groups of letters and digits)')],
    ['<mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-03-14 09:26:53Z"/>', timestamp('mtStatus.deliveryDate', SYNTAX)],
    ['<mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-03-14T09:26:53.000"/>', timestamp('mtStatus.deliveryDate', 'no time zone (Z or ±hh:mm)')],
    ['<mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-13-14T09:26:53.000Z"/>', timestamp('mtStatus.deliveryDate', 'month 13 does not exist')],
    ['<mtStatus ticketId="A1-B2" code="4" deliveryDate="2015-02-29T09:26:53.000Z"/>', timestamp('mtStatus.deliveryDate', 'day 29 does not exist in February 2015')],
    ['<mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-03-14T24:00:01.000Z"/>', timestamp('mtStatus.deliveryDate', 'hour 24 is allowed only as 24:00:00')],
    ['<mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-03-14T09:26:53.000+14:30"/>', timestamp('mtStatus.deliveryDate', 'offset +14:30 is beyond ±14:00')],
    ['<mtStatus ticketId="A1-B2" code="4" totalSegments="0"/>', invalid('mtStatus.totalSegments', 'a positive integer')],
    ['<mtStatus ticketId="A1-B2" code="4" mobileOperatorId="AT&amp;T"/>', invalid('mtStatus.mobileOperatorId', 'a non-negative integer')],
    ['<mtStatus ticketId="A1-B2" code="4"><destination address="1"/><destination address="2"/></mtStatus>', invalid('mtStatus.destination', 'a single element')],
    ['<mtStatus ticketId="A1-B2" code="4"><source ton="three"/></mtStatus>', invalid('mtStatus.source.ton', 'a non-negative integer')],
    ['<mtStatus ticketId="A1-B2" code="830"><segments/></mtStatus>', invalid('mtStatus.segments', 'an element holding one or more segment elements')],
    ['<mtStatus ticketId="A1-B2" code="830"><segments/><segments/></mtStatus>', invalid('mtStatus.segments', 'an element holding one or more segment elements')],
    [
      '<mtStatus ticketId="A1-B2" code="830"><segments><segment segmentNumber="1" code="4"/><segment code="811"/></segments></mtStatus>',
      missing('mtStatus.segments[1].segmentNumber'),
    ],
    [
      '<mtStatus ticketId="A1-B2" code="830"><segments><segment segmentNumber="0" code="4"/></segments></mtStatus>',
      invalid('mtStatus.segments[0].segmentNumber', 'a positive integer'),
    ],
    [
      '<mtStatus ticketId="A1-B2" code="830"><segments><segment segmentNumber="1" code="4" deliveryDate="yesterday"/></segments></mtStatus>',
      timestamp('mtStatus.segments[0].deliveryDate', SYNTAX),
    ],
  ])('XML %s', (body, expected) => {
    expect(decodeMtStatus(body, 'xml')).toStrictEqual(expected);
  });

  it.each([
    ['{"mtStatus": {"code": 4}}', missing('mtStatus.ticketId')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": null}}', invalid('mtStatus.code', 'a non-negative integer')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": 4.5}}', invalid('mtStatus.code', 'a non-negative integer')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": -4}}', invalid('mtStatus.code', 'a non-negative integer')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": 1e300}}', invalid('mtStatus.code', 'a non-negative integer')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": true}}', invalid('mtStatus.code', 'a non-negative integer')],
    ['{"mtStatus": {"ticketId": 1234, "code": 4}}', invalid('mtStatus.ticketId', 'a ticket ID (hyphen-separated groups of letters and digits)')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": 4, "description": 5}}', invalid('mtStatus.description', 'a string')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": 4, "destination": "12065551234"}}', invalid('mtStatus.destination', 'an object')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": 4, "destination": [{"address": "1"}]}}', invalid('mtStatus.destination', 'an object')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": 830, "segments": []}}', invalid('mtStatus.segments', 'a list of one or more segment objects')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": 830, "segments": "none"}}', invalid('mtStatus.segments', 'a list of one or more segment objects')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": 830, "segments": [4]}}', invalid('mtStatus.segments[0]', 'an object')],
    ['{"mtStatus": {"ticketId": "A1-B2", "code": 830, "segments": {"segment": [{"segmentNumber": 1}]}}}', missing('mtStatus.segments[0].code')],
  ])('JSON %s', (body, expected) => {
    expect(decodeMtStatus(body, 'json')).toStrictEqual(expected);
  });

  it('refuses an error record where a status is expected, naming its root', () => {
    expect(decodeMtStatus(loadFixture('mt-status/not-found-error.xml'), 'xml')).toStrictEqual({
      ok: false,
      error: { code: 'wrong-resource', description: 'Payload root is error, not mtStatus' },
    });
  });
});

describe('encodeMtStatus', () => {
  it('writes the XML form in the MT namespace, segments as <segments><segment/></segments>', () => {
    const xml = encodeMtStatus(PARTIAL_FAILURE, 'xml');
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>' +
        '<mtStatus xmlns="http://sms.openmarket.com/v4/mt" ticketId="03155-0331L-1439U-51SLFX" code="830" description="Partial message delivery failure" mobileOperatorId="77" note1="spring &amp; summer &lt;promo&gt;" totalSegments="3">' +
        '<destination address="447700900123" mobileOperatorId="77" alpha2Code="GB"/>' +
        '<source address="OpenMarket" ton="5"/>' +
        '<segments>' +
        '<segment segmentNumber="1" deliveryDate="2024-03-14T09:26:53.000Z" code="4" description="Message delivered"/>' +
        '<segment segmentNumber="2" deliveryDate="2024-03-14T09:26:54.120Z" code="4" description="Message delivered"/>' +
        '<segment segmentNumber="3" code="811" description="Message expired before it reached handset"/>' +
        '</segments></mtStatus>',
    );
  });

  it('writes the namespace given, or none', () => {
    const value = { ticketId: 'A1-B2', code: 2 };
    expect(encodeMtStatus(value, 'xml')).toContain(`<mtStatus xmlns="${XML_NAMESPACES.mt}" ticketId="A1-B2" code="2"/>`);
    expect(encodeMtStatus(value, 'xml', { namespace: null })).toContain('<mtStatus ticketId="A1-B2" code="2"/>');
    expect(encodeMtStatus(value, 'xml', { namespace: 'https://sms.openmarket.com/v4/mt' })).toContain('xmlns="https://sms.openmarket.com/v4/mt"');
  });

  it('writes the JSON form with numbers as numbers and segments as a list, members in a fixed order', () => {
    expect(JSON.parse(encodeMtStatus(PARTIAL_FAILURE, 'json'))).toStrictEqual({ mtStatus: PARTIAL_FAILURE });
    const shuffled = { code: 2, ticketId: 'A1-B2', description: 'Message accepted' };
    expect(encodeMtStatus(shuffled, 'json')).toBe('{"mtStatus":{"ticketId":"A1-B2","code":2,"description":"Message accepted"}}');
  });

  it('leaves out members the schema does not name', () => {
    const value = { ticketId: 'A1-B2', code: 2, secret: 'x' } as MtStatus;
    expect(encodeMtStatus(value, 'json')).toBe('{"mtStatus":{"ticketId":"A1-B2","code":2}}');
    expect(encodeMtStatus(value, 'xml')).not.toContain('secret');
  });

  it('throws TypeError for a value that breaks the schema, naming the member', () => {
    expect(() => encodeMtStatus({ ticketId: 'A1-B2', code: -1 }, 'xml')).toThrow(new TypeError('not a valid mtStatus: Member mtStatus.code must be a non-negative integer'));
    expect(() => encodeMtStatus({ ticketId: 'A1-B2', code: 2, segments: [] }, 'json')).toThrow(TypeError);
  });
});
