// Every decoder of what the service sends reads timestamps with the one reader: offsets are taken,
// the text is kept as received, and a date that does not exist is refused naming the member.
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { decodeDeliveryReceipt, encodeDeliveryReceipt, type DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { parseStatusResponse } from '../http/responses.js';
import { decodeMobileOriginate, encodeMobileOriginate, type MobileOriginate } from '../mobile-originate/mobile-originate.js';
import { decodeMtStatus, encodeMtStatus } from '../mt-status/mt-status.js';
import { receiptInstants, statusInstants } from '../mt-status/status-instants.js';
import { timestampInstant } from '../time/xs-date-time.js';
import { decodeCallback } from './decode-callback.js';

const FEB_30 = '2015-02-30T15:10:03.029-05:00';
const invalid = (path: string, reason: string) => ({
  ok: false,
  error: { code: 'invalid-member', description: `Member ${path} must be an xs:dateTime with a time zone: ${reason}`, path },
});

describe('the published inbound message with an offset', () => {
  it.each(['xml', 'json'] as const)('decodes (%s), keeping the text and giving the UTC instant', (format) => {
    const decoded = decodeMobileOriginate(loadFixture(`timestamps/inbound-offset.${format}`), format);
    expect(decoded.ok && decoded.value.submittedDate).toBe('2015-08-29T15:10:03.029-05:00');
    expect(decoded.ok && timestampInstant(decoded.value.submittedDate as string)).toBe('2015-08-29T20:10:03.029Z');
    const callback = decodeCallback(loadFixture(`timestamps/inbound-offset.${format}`), format);
    expect(callback.ok && callback.value.kind === 'inbound-message' && callback.value.submittedInstant).toBe('2015-08-29T20:10:03.029Z');
  });
});

describe('the instants of a decoded status or receipt', () => {
  it('statusInstants gives the instant of the status and of each part, in the order of segments', () => {
    const status = decodeMtStatus(loadFixture('timestamps/status-offsets.xml'), 'xml');
    if (!status.ok) throw new Error(status.error.description);
    expect(statusInstants(status.value)).toStrictEqual({
      deliveryInstant: '2024-03-14T09:26:54.000Z',
      segmentInstants: [
        { segmentNumber: 1, deliveryInstant: '2024-03-14T09:26:53.123Z' },
        { segmentNumber: 2, deliveryInstant: '2024-03-14T10:00:00.000Z' },
      ],
    });
    const partial = decodeMtStatus('{"mtStatus":{"ticketId":"A1-B2","code":831,"segments":[{"segmentNumber":2,"code":2},{"segmentNumber":1,"code":4,"deliveryDate":"2024-03-14T09:26:53Z"}]}}', 'json');
    expect(partial.ok && statusInstants(partial.value)).toStrictEqual({
      segmentInstants: [{ segmentNumber: 2 }, { segmentNumber: 1, deliveryInstant: '2024-03-14T09:26:53.000Z' }],
    });
    expect(statusInstants({ ticketId: 'A1-B2', code: 2 })).toStrictEqual({});
  });

  it.each([
    ['timestamps/receipt-offset.json', 'json'],
    ['timestamps/receipt-offset-nanos.xml', 'xml'],
  ] as const)('receiptInstants gives what decodeCallback gives as deliveryInstant (%s)', (path, format) => {
    const receipt = decodeDeliveryReceipt(loadFixture(path), format);
    const callback = decodeCallback(loadFixture(path), format);
    if (!receipt.ok || !callback.ok || callback.value.kind !== 'delivery-receipt') throw new Error('not decoded');
    expect(receiptInstants(receipt.value)).toStrictEqual({ deliveryInstant: timestampInstant(receipt.value.mtStatus.deliveryDate as string) });
    expect(receiptInstants(receipt.value).deliveryInstant).toBe(callback.value.deliveryInstant);
    expect(receiptInstants(receipt.value).deliveryInstant).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('a receipt without a delivery date has no instant; a value no decoder gave is a TypeError', () => {
    expect(receiptInstants({ type: 'final', mtStatus: { ticketId: 'A1-B2', code: 2 } })).toStrictEqual({});
    expect(() => receiptInstants({ type: 'final', mtStatus: { ticketId: 'A1-B2', code: 4, deliveryDate: FEB_30 } })).toThrow(
      new TypeError(`timestampInstant: "${FEB_30}" is not an xs:dateTime with a time zone (day 30 does not exist in February 2015)`),
    );
  });
});

describe('status responses', () => {
  it('take offsets, nine fraction digits and 24:00:00, at the top and in every segment', () => {
    const status = decodeMtStatus(loadFixture('timestamps/status-offsets.xml'), 'xml');
    if (!status.ok) throw new Error(status.error.description);
    expect(status.value.deliveryDate).toBe('2024-03-14T04:26:54-05:00');
    expect(status.value.segments?.map((s) => s.deliveryDate)).toStrictEqual(['2024-03-14T14:56:53.123456789+05:30', '2024-03-14T24:00:00+14:00']);
    expect(status.value.segments?.map((s) => timestampInstant(s.deliveryDate as string))).toStrictEqual([
      '2024-03-14T09:26:53.123Z',
      '2024-03-14T10:00:00.000Z',
    ]);
  });

  it.each([
    ['XML top level', '<mtStatus ticketId="A1-B2" code="4" deliveryDate="2015-02-30T15:10:03.029-05:00"/>', 'xml', 'mtStatus.deliveryDate'],
    [
      'XML segment',
      `<mtStatus ticketId="A1-B2" code="830"><segments><segment segmentNumber="1" code="4"/><segment segmentNumber="2" code="4" deliveryDate="${FEB_30}"/></segments></mtStatus>`,
      'xml',
      'mtStatus.segments[1].deliveryDate',
    ],
    // Exactly the decoded form: the JSON fast path, which must read the timestamps too.
    ['JSON top level', `{"mtStatus":{"ticketId":"A1-B2","deliveryDate":"${FEB_30}","code":4}}`, 'json', 'mtStatus.deliveryDate'],
    [
      'JSON segment',
      `{"mtStatus":{"ticketId":"A1-B2","code":830,"segments":[{"segmentNumber":1,"deliveryDate":"${FEB_30}","code":4}]}}`,
      'json',
      'mtStatus.segments[0].deliveryDate',
    ],
    ['JSON read member by member', `{"mtStatus":{"ticketId":"A1-B2","deliveryDate":"${FEB_30}","code":"4"}}`, 'json', 'mtStatus.deliveryDate'],
  ] as const)('refuse a date that does not exist (%s), naming the member', (_name, body, format, path) => {
    expect(decodeMtStatus(body, format)).toStrictEqual(invalid(path, 'day 30 does not exist in February 2015'));
  });

  it('parseStatusResponse takes offsets and names the member of a date that does not exist', () => {
    const answer = (body: string) => parseStatusResponse({ status: 200, headers: { 'content-type': 'application/xml; charset=UTF-8' }, body });
    const good = answer(loadFixture('timestamps/status-offsets.xml'));
    expect(good.ok && good.value.status.deliveryDate).toBe('2024-03-14T04:26:54-05:00');
    // The instants beside the texts, as the callback decoder gives them.
    expect(good.ok && good.value.deliveryInstant).toBe('2024-03-14T09:26:54.000Z');
    expect(good.ok && good.value.segmentInstants).toStrictEqual([
      { segmentNumber: 1, deliveryInstant: '2024-03-14T09:26:53.123Z' },
      { segmentNumber: 2, deliveryInstant: '2024-03-14T10:00:00.000Z' },
    ]);
    const pending = answer('<mtStatus ticketId="A1-B2" code="2"/>');
    expect(pending.ok && Object.keys(pending.value).sort()).toStrictEqual(['httpStatus', 'status']);
    const bad = answer(`<mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-03-14T24:30:00Z"/>`);
    expect(bad).toMatchObject({
      ok: false,
      error: {
        kind: 'unexpected-response',
        description: 'HTTP 200 with an invalid status document: Member mtStatus.deliveryDate must be an xs:dateTime with a time zone: hour 24 is allowed only as 24:00:00',
      },
    });
  });
});

describe('delivery receipts', () => {
  it.each([
    ['timestamps/receipt-offset-nanos.xml', 'xml', '2024-03-14T14:56:53.123456789+05:30', '2024-03-14T09:26:53.123Z'],
    ['timestamps/receipt-offset.json', 'json', '2024-03-14T04:26:54-05:00', '2024-03-14T09:26:54.000Z'],
  ] as const)('%s keeps the text and gives the instant', (path, format, text, instant) => {
    const receipt = decodeDeliveryReceipt(loadFixture(path), format);
    expect(receipt.ok && receipt.value.mtStatus.deliveryDate).toBe(text);
    const callback = decodeCallback(loadFixture(path), format);
    expect(callback.ok && callback.value.kind === 'delivery-receipt' && callback.value.deliveryInstant).toBe(instant);
  });

  it.each([
    ['spec layout', `<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-03-14T09:26:53+15:00"/></deliveryReceipt>`],
    [
      'nested layout',
      `<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-03-14T09:26:53+15:00"><destination address="1"/></mtStatus></deliveryReceipt>`,
    ],
  ])('refuse an offset beyond ±14:00 (%s), naming the member', (_name, body) => {
    const expected = invalid('deliveryReceipt.mtStatus.deliveryDate', 'offset +15:00 is beyond ±14:00');
    expect(decodeDeliveryReceipt(body, 'xml')).toStrictEqual(expected);
    expect(decodeCallback(body, 'xml')).toStrictEqual(expected);
  });
});

describe('inbound messages', () => {
  const xml = (date: string, extra = '') =>
    `<mobileOriginate ticketId="A1-B2" submittedDate="${date}"><source address="1"/>${extra}<destination address="2"/><message type="text" content="x"/></mobileOriginate>`;

  it.each([
    ['no time zone', xml('2015-08-29T15:10:03'), 'no time zone (Z or ±hh:mm)'],
    ['not a date', xml('29/08/2015 15:10'), 'expected YYYY-MM-DDThh:mm:ss, an optional fraction of a second and a time zone (Z or ±hh:mm)'],
    ['a leap second', xml('2016-12-31T23:59:60Z'), 'second 60 does not exist'],
  ])('refuse %s', (_name, body, reason) => {
    expect(decodeMobileOriginate(body, 'xml')).toStrictEqual(invalid('mobileOriginate.submittedDate', reason));
  });

  it('refuse a date that does not exist on every path of the callback decoder', () => {
    const expected = invalid('mobileOriginate.submittedDate', 'day 30 does not exist in February 2015');
    // The one-pass XML reader, the full XML parser (a comment inside an element sends it there), and JSON.
    expect(decodeCallback(xml(FEB_30), 'xml')).toStrictEqual(expected);
    expect(decodeCallback(xml(FEB_30, '<!-- a comment -->'), 'xml')).toStrictEqual(expected);
    const json = `{"mobileOriginate":{"submittedDate":"${FEB_30}","ticketId":"A1-B2","source":{"address":"1"},"destination":{"address":"2"},"message":{"type":"text","content":"x"}}}`;
    expect(decodeCallback(json, 'json')).toStrictEqual(expected);
    expect(decodeMobileOriginate(json, 'json')).toStrictEqual(expected);
  });

  it('refuse a timestamp that is not a string, saying what it must be', () => {
    const json = `{"mobileOriginate":{"submittedDate":1440879003029,"ticketId":"A1-B2","source":{"address":"1"},"destination":{"address":"2"},"message":{"type":"text","content":"x"}}}`;
    expect(decodeMobileOriginate(json, 'json')).toStrictEqual({
      ok: false,
      error: {
        code: 'invalid-member',
        description: 'Member mobileOriginate.submittedDate must be an xs:dateTime with a time zone, such as 2024-05-01T12:00:00.000Z or 2024-05-01T07:00:00-05:00',
        path: 'mobileOriginate.submittedDate',
      },
    });
  });
});

describe('encoders', () => {
  const message: MobileOriginate = {
    submittedDate: '2015-08-29T15:10:03.029-05:00',
    ticketId: 'A1-B2',
    source: { address: '1' },
    destination: { address: '2' },
    message: { type: 'text', content: 'x' },
  };

  it('write a timestamp as given, offset included', () => {
    expect(encodeMobileOriginate(message, 'xml')).toContain('submittedDate="2015-08-29T15:10:03.029-05:00"');
    expect(decodeMobileOriginate(encodeMobileOriginate(message, 'json'), 'json')).toStrictEqual({ ok: true, value: message });
  });

  it('throw TypeError for a date that does not exist, naming the member and the reason', () => {
    expect(() => encodeMobileOriginate({ ...message, submittedDate: FEB_30 }, 'xml')).toThrow(
      new TypeError('not a valid mobileOriginate: Member mobileOriginate.submittedDate must be an xs:dateTime with a time zone: day 30 does not exist in February 2015'),
    );
    const receipt: DeliveryReceipt = { type: 'final', mtStatus: { ticketId: 'A1-B2', code: 4, deliveryDate: '2024-13-01T00:00:00Z' } };
    expect(() => encodeDeliveryReceipt(receipt, 'json')).toThrow(
      new TypeError('not a valid deliveryReceipt: Member deliveryReceipt.mtStatus.deliveryDate must be an xs:dateTime with a time zone: month 13 does not exist'),
    );
    expect(() => encodeMtStatus({ ticketId: 'A1-B2', code: 830, segments: [{ segmentNumber: 1, code: 4, deliveryDate: '2023-02-29T00:00:00Z' }] }, 'xml')).toThrow(
      new TypeError('not a valid mtStatus: Member mtStatus.segments[0].deliveryDate must be an xs:dateTime with a time zone: day 29 does not exist in February 2023'),
    );
  });
});
