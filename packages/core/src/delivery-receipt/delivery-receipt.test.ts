import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { decodeMtStatus } from '../mt-status/mt-status.js';
import { decodeDeliveryReceipt, encodeDeliveryReceipt, type DeliveryReceipt } from './delivery-receipt.js';

const decodeFixture = (path: string): DeliveryReceipt => {
  const result = decodeDeliveryReceipt(loadFixture(path), path.endsWith('.json') ? 'json' : 'xml');
  if (!result.ok) throw new Error(`${path}: ${result.error.description}`);
  return result.value;
};

const SINGLE: DeliveryReceipt = {
  type: 'final',
  mtStatus: {
    ticketId: '44101-0922I-13413-21GDL',
    deliveryDate: '2024-03-14T09:26:53.000Z',
    code: 4,
    description: 'Message delivered',
    mobileOperatorId: 383,
    note1: 'order-5567',
    note2: 'customer 88',
  },
  destination: { address: '12065551234', mobileOperatorId: 383, alpha2Code: 'US' },
  source: { address: '24273', ton: 3 },
};

const PART_2_EXPIRED: DeliveryReceipt = {
  type: 'final',
  mtStatus: {
    ticketId: '03155-0331L-1439U-51SLFX',
    code: 811,
    description: 'Message expired before it reached handset',
    mobileOperatorId: 77,
    note1: 'spring & summer',
    totalSegments: 3,
    segmentNumber: 2,
  },
  destination: { address: '447700900123', mobileOperatorId: 77, alpha2Code: 'GB' },
  source: { address: 'OpenMarket', ton: 5 },
};

const NESTED: DeliveryReceipt = {
  type: 'final',
  mtStatus: {
    ticketId: '44101-0922I-13413-21GDL',
    deliveryDate: '2024-03-14T09:26:53.000Z',
    code: 4,
    description: 'Message delivered',
    mobileOperatorId: 383,
    note1: 'order-5567',
    totalSegments: 2,
    segmentNumber: 1,
  },
  destination: { address: '12065551234', mobileOperatorId: 383, alpha2Code: 'US' },
  source: { address: '24273', ton: 3 },
};

describe('decodeDeliveryReceipt on real payloads', () => {
  it.each([
    ['delivery-receipt/single-delivered.xml', SINGLE],
    ['delivery-receipt/single-delivered.json', SINGLE],
    ['delivery-receipt/multipart-part2-expired.xml', PART_2_EXPIRED],
    ['delivery-receipt/multipart-part2-expired.json', PART_2_EXPIRED],
    ['delivery-receipt/nested-layout.xml', NESTED],
    ['delivery-receipt/nested-layout.json', NESTED],
  ])('%s', (path, expected) => {
    expect(decodeFixture(path)).toStrictEqual(expected);
  });

  it('reads a single-part receipt with the same content as the status of the message', () => {
    const status = decodeMtStatus(loadFixture('mt-status/single-delivered.xml'), 'xml');
    const receipt = decodeFixture('delivery-receipt/single-delivered.xml');
    if (!status.ok) throw new Error(status.error.description);
    const { destination, source, ...attributes } = status.value;
    expect(receipt.destination).toStrictEqual(destination);
    expect(receipt.source).toStrictEqual(source);
    expect(receipt.mtStatus).toMatchObject(attributes);
  });

  it('prefers destination and source beside mtStatus when both layouts are present', () => {
    const xml =
      '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4"><destination address="111"/><source address="222"/></mtStatus>' +
      '<destination address="333"/><source address="444"/></deliveryReceipt>';
    expect(decodeDeliveryReceipt(xml, 'xml')).toStrictEqual({
      ok: true,
      value: { type: 'final', mtStatus: { ticketId: 'A1-B2', code: 4 }, destination: { address: '333' }, source: { address: '444' } },
    });
    const json =
      '{"deliveryReceipt": {"type": "final", "mtStatus": {"ticketId": "A1-B2", "code": 4, "destination": {"address": "111"}}, "destination": {"address": "333"}}}';
    expect(decodeDeliveryReceipt(json, 'json')).toStrictEqual({
      ok: true,
      value: { type: 'final', mtStatus: { ticketId: 'A1-B2', code: 4 }, destination: { address: '333' } },
    });
  });

  it('prefers alpha2Code over alpha2code when both are present', () => {
    const json = '{"deliveryReceipt": {"type": "final", "mtStatus": {"ticketId": "A1-B2", "code": 4}, "destination": {"alpha2code": "GB", "alpha2Code": "US"}}}';
    expect(decodeDeliveryReceipt(json, 'json')).toStrictEqual({
      ok: true,
      value: { type: 'final', mtStatus: { ticketId: 'A1-B2', code: 4 }, destination: { alpha2Code: 'US' } },
    });
  });

  it('takes a receipt with neither destination nor source', () => {
    expect(decodeDeliveryReceipt('<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="811"/></deliveryReceipt>', 'xml')).toStrictEqual({
      ok: true,
      value: { type: 'final', mtStatus: { ticketId: 'A1-B2', code: 811 } },
    });
  });
});

describe('hostile receipts', () => {
  const invalidXml = {
    ok: false,
    error: { code: 'invalid-xml', description: 'Invalid XML in the payload - not well-formed, or holds a DOCTYPE or an entity declaration' },
  };

  it.each([
    'delivery-receipt/hostile-billion-laughs.xml',
    'delivery-receipt/hostile-external-entity.xml',
    'delivery-receipt/hostile-undeclared-entity.xml',
    'delivery-receipt/hostile-proto-element.xml',
  ])('%s is refused as invalid-xml', (path) => {
    expect(decodeDeliveryReceipt(loadFixture(path), 'xml')).toStrictEqual(invalidXml);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses deep nesting without recursing into it', () => {
    const deep = `<deliveryReceipt type="final">${'<mtStatus>'.repeat(100_000)}${'</mtStatus>'.repeat(100_000)}</deliveryReceipt>`;
    expect(decodeDeliveryReceipt(deep, 'xml', { maxBytes: 10_000_000 })).toStrictEqual({
      ok: false,
      error: { code: 'invalid-xml', description: 'Invalid XML in the payload - nested too deeply' },
    });
    const deepJson = `{"deliveryReceipt": ${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    expect(decodeDeliveryReceipt(deepJson, 'json', { maxBytes: 10_000_000 }).ok).toBe(false);
  });

  it('refuses a huge body by its size alone', () => {
    const huge = `<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4" note1="${'x'.repeat(5_000_000)}"/></deliveryReceipt>`;
    expect(decodeDeliveryReceipt(huge, 'xml')).toStrictEqual({ ok: false, error: { code: 'too-large', description: 'Payload exceeds 65536 bytes' } });
    expect(decodeDeliveryReceipt(new TextEncoder().encode(huge), 'xml')).toStrictEqual({
      ok: false,
      error: { code: 'too-large', description: 'Payload exceeds 65536 bytes' },
    });
  });

  it('treats prototype-named JSON members as plain data and pollutes nothing', () => {
    const json =
      '{"deliveryReceipt": {"__proto__": {"type": "final"}, "constructor": {"prototype": {"x": 1}}, "mtStatus": {"ticketId": "A1-B2", "code": 4, "__proto__": {"note1": "no"}}}}';
    expect(decodeDeliveryReceipt(json, 'json')).toStrictEqual({
      ok: false,
      error: { code: 'missing-member', description: 'Required member deliveryReceipt.type is missing', path: 'deliveryReceipt.type' },
    });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('decodeDeliveryReceipt rejections', () => {
  it.each([
    ['<deliveryReceipt><mtStatus ticketId="A1-B2" code="4"/></deliveryReceipt>', 'missing-member', 'deliveryReceipt.type', 'Required member deliveryReceipt.type is missing'],
    ['<deliveryReceipt type="intermediate"><mtStatus ticketId="A1-B2" code="4"/></deliveryReceipt>', 'invalid-member', 'deliveryReceipt.type', 'Member deliveryReceipt.type must be "final"'],
    ['<deliveryReceipt type="final"/>', 'missing-member', 'deliveryReceipt.mtStatus', 'Required member deliveryReceipt.mtStatus is missing'],
    ['<deliveryReceipt type="final"><mtStatus code="4"/></deliveryReceipt>', 'missing-member', 'deliveryReceipt.mtStatus.ticketId', 'Required member deliveryReceipt.mtStatus.ticketId is missing'],
    [
      '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4" segmentNumber="two"/></deliveryReceipt>',
      'invalid-member',
      'deliveryReceipt.mtStatus.segmentNumber',
      'Member deliveryReceipt.mtStatus.segmentNumber must be a positive integer',
    ],
    [
      '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4"/><mtStatus ticketId="A1-B3" code="4"/></deliveryReceipt>',
      'invalid-member',
      'deliveryReceipt.mtStatus',
      'Member deliveryReceipt.mtStatus must be a single element',
    ],
    [
      '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4"><destination mobileOperatorId="x"/></mtStatus></deliveryReceipt>',
      'invalid-member',
      'deliveryReceipt.destination.mobileOperatorId',
      'Member deliveryReceipt.destination.mobileOperatorId must be a non-negative integer',
    ],
    ['<mtStatus ticketId="A1-B2" code="4"/>', 'wrong-resource', undefined, 'Payload root is mtStatus, not deliveryReceipt'],
  ])('%s', (body, code, path, description) => {
    expect(decodeDeliveryReceipt(body, 'xml')).toStrictEqual({ ok: false, error: path === undefined ? { code, description } : { code, description, path } });
  });

  it('names the member at fault in JSON too', () => {
    expect(decodeDeliveryReceipt('{"deliveryReceipt": {"type": "final", "mtStatus": {"ticketId": "A1-B2", "code": "4x"}}}', 'json')).toStrictEqual({
      ok: false,
      error: { code: 'invalid-member', description: 'Member deliveryReceipt.mtStatus.code must be a non-negative integer', path: 'deliveryReceipt.mtStatus.code' },
    });
    expect(decodeDeliveryReceipt('{"deliveryReceipt": {"type": "final", "mtStatus": {"ticketId": "A1-B2", "code": 4}, "source": {"ton": "3a"}}}', 'json')).toStrictEqual({
      ok: false,
      error: { code: 'invalid-member', description: 'Member deliveryReceipt.source.ton must be a non-negative integer', path: 'deliveryReceipt.source.ton' },
    });
  });
});

describe('encodeDeliveryReceipt', () => {
  it('writes the spec layout: destination and source beside mtStatus, in the MT namespace', () => {
    expect(encodeDeliveryReceipt(NESTED, 'xml')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>' +
        '<deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final">' +
        '<mtStatus ticketId="44101-0922I-13413-21GDL" deliveryDate="2024-03-14T09:26:53.000Z" code="4" description="Message delivered" mobileOperatorId="383" note1="order-5567" totalSegments="2" segmentNumber="1"/>' +
        '<destination address="12065551234" mobileOperatorId="383" alpha2Code="US"/>' +
        '<source address="24273" ton="3"/>' +
        '</deliveryReceipt>',
    );
  });

  it('writes the JSON form with the same names', () => {
    expect(JSON.parse(encodeDeliveryReceipt(PART_2_EXPIRED, 'json'))).toStrictEqual({ deliveryReceipt: PART_2_EXPIRED });
  });

  it('turns a nested-layout receipt into the spec layout', () => {
    const nested = loadFixture('delivery-receipt/nested-layout.xml');
    const decoded = decodeDeliveryReceipt(nested, 'xml');
    if (!decoded.ok) throw new Error(decoded.error.description);
    const encoded = encodeDeliveryReceipt(decoded.value, 'xml');
    expect(encoded).toMatch(/<mtStatus [^>]*\/><destination [^>]*\/><source [^>]*\/><\/deliveryReceipt>$/);
    expect(encoded).not.toContain('</mtStatus>');
    expect(decodeDeliveryReceipt(encoded, 'xml')).toStrictEqual(decoded);
  });

  it('throws TypeError for a receipt whose type is not final', () => {
    expect(() => encodeDeliveryReceipt({ ...SINGLE, type: 'pending' as 'final' }, 'xml')).toThrow(
      new TypeError('not a valid deliveryReceipt: Member deliveryReceipt.type must be "final"'),
    );
  });
});
