import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { decodeMobileOriginate, encodeMobileOriginate, type MobileOriginate } from './mobile-originate.js';

const decodeFixture = (path: string): MobileOriginate => {
  const result = decodeMobileOriginate(loadFixture(path), path.endsWith('.json') ? 'json' : 'xml');
  if (!result.ok) throw new Error(`${path}: ${result.error.description}`);
  return result.value;
};

const STOP: MobileOriginate = {
  submittedDate: '2024-03-14T10:02:11.000Z',
  ticketId: '2213K-0122M-1347B-28U4E',
  source: { ton: 1, address: '12065551234', mobileOperatorId: 383 },
  destination: { ton: 3, address: '24273' },
  message: { type: 'text', udh: false, content: 'STOP & unsubscribe 👋' },
};

const hexPart = (ticketId: string, submittedDate: string, content: string): MobileOriginate => ({
  submittedDate,
  ticketId,
  source: { ton: 1, address: '12065551234', mobileOperatorId: 383 },
  destination: { ton: 3, address: '24273' },
  message: { type: 'hexEncodedText', udh: true, content },
});

describe('decodeMobileOriginate on real payloads', () => {
  it.each([
    ['mobile-originate/text-attribute.xml', STOP],
    ['mobile-originate/text.json', STOP],
    [
      'mobile-originate/content-element.xml',
      {
        submittedDate: '2024-03-14T10:05:40.512Z',
        ticketId: '7QW2E-0314X-55RT0-11ABC',
        source: { ton: 1, address: '447700900123', mobileOperatorId: 77 },
        destination: { ton: 1, address: '447700900999' },
        message: { type: 'hexEncodedText', udh: false, content: '48656C6C6F0D0A776F726C64' },
      },
    ],
    ['mobile-originate/udh8-part1.xml', hexPart('31QX9-0314A-0000A-77PQR', '2024-03-14T11:00:01.000Z', '0500034A020148656C6C6F20')],
    ['mobile-originate/udh8-part2.xml', hexPart('31QX9-0314A-0000B-77PQS', '2024-03-14T11:00:02.000Z', '0500034A0202776F726C64')],
    ['mobile-originate/udh16-part1.json', hexPart('5KD0P-0314C-1A2B3-00001', '2024-03-14T11:10:00.000Z', '0608041A2B020148656C6C6F20')],
    ['mobile-originate/udh16-part2.json', hexPart('5KD0P-0314C-1A2B3-00002', '2024-03-14T11:10:01.000Z', '0608041A2B0202776F726C64')],
  ])('%s', (path, expected) => {
    expect(decodeFixture(path)).toStrictEqual(expected);
  });

  it('keeps the concatenation header of each multipart part at the start of its content', () => {
    // 8-bit reference: 05 00 03 <ref> <total> <seq>; 16-bit reference: 06 08 04 <ref ref> <total> <seq>.
    const parts8 = ['mobile-originate/udh8-part1.xml', 'mobile-originate/udh8-part2.xml'].map(decodeFixture);
    expect(parts8.map((part) => part.message.content.slice(0, 12))).toStrictEqual(['0500034A0201', '0500034A0202']);
    const parts16 = ['mobile-originate/udh16-part1.json', 'mobile-originate/udh16-part2.json'].map(decodeFixture);
    expect(parts16.map((part) => part.message.content.slice(0, 14))).toStrictEqual(['0608041A2B0201', '0608041A2B0202']);
  });

  it('takes content given both as the attribute and as a <content> element when they agree, and refuses it when they differ', () => {
    const xml = (attribute: string, element: string) =>
      `<mobileOriginate ticketId="A1-B2"><source address="1"/><destination address="2"/><message type="text" content="${attribute}"><content>${element}</content></message></mobileOriginate>`;
    expect(decodeMobileOriginate(xml('same &amp; same', 'same &amp; same'), 'xml')).toMatchObject({ ok: true, value: { message: { content: 'same & same' } } });
    const refused = {
      ok: false,
      error: {
        code: 'invalid-member',
        description: 'Member mobileOriginate.message.content must be one string (the content attribute or one <content> element)',
        path: 'mobileOriginate.message.content',
      },
    };
    expect(decodeMobileOriginate(xml('attribute', 'element'), 'xml')).toStrictEqual(refused);
    expect(decodeMobileOriginate(xml('attribute', ''), 'xml')).toStrictEqual(refused);
  });

  it('reads an empty <content/> element as empty content, and a CDATA section as text', () => {
    const base = '<mobileOriginate ticketId="A1-B2"><source address="1"/><destination address="2"/><message type="text">';
    const empty = decodeMobileOriginate(`${base}<content/></message></mobileOriginate>`, 'xml');
    expect(empty.ok && empty.value.message.content).toBe('');
    const cdata = decodeMobileOriginate(`${base}<content><![CDATA[a < b]]></content></message></mobileOriginate>`, 'xml');
    expect(cdata.ok && cdata.value.message.content).toBe('a < b');
  });

  it('ignores prototype-named members and pollutes nothing', () => {
    expect(decodeFixture('mobile-originate/prototype-members.json')).toStrictEqual({
      ticketId: '2213K-0122M-1347B-28U4E',
      source: { address: '12065551234' },
      destination: { address: '24273' },
      message: { type: 'text', content: 'hi' },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).content).toBeUndefined();
  });
});

describe('decodeMobileOriginate rejections', () => {
  const base = (message: string, extra = '') =>
    `<mobileOriginate ticketId="A1-B2"${extra}><source address="1"/><destination address="2"/>${message}</mobileOriginate>`;

  it.each([
    [base('<message type="text" udh="yes" content="x"/>'), 'invalid-member', 'mobileOriginate.message.udh', 'Member mobileOriginate.message.udh must be true or false'],
    [base('<message type="text" udh="TRUE" content="x"/>'), 'invalid-member', 'mobileOriginate.message.udh', 'Member mobileOriginate.message.udh must be true or false'],
    [base('<message type="text"/>'), 'missing-member', 'mobileOriginate.message.content', 'Required member mobileOriginate.message.content is missing'],
    [base('<message content="x"/>'), 'missing-member', 'mobileOriginate.message.type', 'Required member mobileOriginate.message.type is missing'],
    [base('<message type="" content="x"/>'), 'invalid-member', 'mobileOriginate.message.type', 'Member mobileOriginate.message.type must be a non-empty string'],
    [
      base('<message type="text"><content>a</content><content>b</content></message>'),
      'invalid-member',
      'mobileOriginate.message.content',
      'Member mobileOriginate.message.content must be one string (the content attribute or one <content> element)',
    ],
    [base(''), 'missing-member', 'mobileOriginate.message', 'Required member mobileOriginate.message is missing'],
    [
      base('<message type="text" content="x"/>', ' submittedDate="2024-03-14"'),
      'invalid-member',
      'mobileOriginate.submittedDate',
      'Member mobileOriginate.submittedDate must be an xs:dateTime with a time zone: expected YYYY-MM-DDThh:mm:ss, an optional fraction of a second and a time zone (Z or ±hh:mm)',
    ],
    [
      base('<message type="text" content="x"/>', ' submittedDate="2015-02-30T15:10:03.029-05:00"'),
      'invalid-member',
      'mobileOriginate.submittedDate',
      'Member mobileOriginate.submittedDate must be an xs:dateTime with a time zone: day 30 does not exist in February 2015',
    ],
    [
      '<mobileOriginate ticketId="A1-B2"><source ton="1"/><destination address="2"/><message type="text" content="x"/></mobileOriginate>',
      'missing-member',
      'mobileOriginate.source.address',
      'Required member mobileOriginate.source.address is missing',
    ],
    [
      '<mobileOriginate ticketId="A1-B2"><source address="1"/><message type="text" content="x"/></mobileOriginate>',
      'missing-member',
      'mobileOriginate.destination',
      'Required member mobileOriginate.destination is missing',
    ],
  ])('%s', (body, code, path, description) => {
    expect(decodeMobileOriginate(body, 'xml')).toStrictEqual({ ok: false, error: { code, description, path } });
  });

  it('accepts udh as a JSON Boolean or the strings "true"/"false", and nothing else', () => {
    const json = (udh: string) =>
      `{"mobileOriginate": {"ticketId": "A1-B2", "source": {"address": "1"}, "destination": {"address": "2"}, "message": {"type": "binary", "content": "00", "udh": ${udh}}}}`;
    for (const [udh, value] of [['true', true], ['"true"', true], ['false', false], ['"false"', false]] as const) {
      const result = decodeMobileOriginate(json(udh), 'json');
      expect(result.ok && result.value.message.udh).toBe(value);
    }
    for (const udh of ['1', '"yes"', 'null', '{}']) {
      expect(decodeMobileOriginate(json(udh), 'json')).toStrictEqual({
        ok: false,
        error: { code: 'invalid-member', description: 'Member mobileOriginate.message.udh must be true or false', path: 'mobileOriginate.message.udh' },
      });
    }
  });
});

describe('encodeMobileOriginate', () => {
  it('writes the text as the content attribute of <message> in the MO namespace', () => {
    expect(encodeMobileOriginate(STOP, 'xml')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>' +
        '<mobileOriginate xmlns="http://sms.openmarket.com/v4/mo" submittedDate="2024-03-14T10:02:11.000Z" ticketId="2213K-0122M-1347B-28U4E">' +
        '<source ton="1" address="12065551234" mobileOperatorId="383"/>' +
        '<destination ton="3" address="24273"/>' +
        '<message type="text" udh="false" content="STOP &amp; unsubscribe 👋"/>' +
        '</mobileOriginate>',
    );
  });

  it('writes udh as a JSON Boolean and numbers as numbers', () => {
    expect(encodeMobileOriginate(decodeFixture('mobile-originate/udh16-part2.json'), 'json')).toBe(
      '{"mobileOriginate":{"submittedDate":"2024-03-14T11:10:01.000Z","ticketId":"5KD0P-0314C-1A2B3-00002",' +
        '"source":{"ton":1,"address":"12065551234","mobileOperatorId":383},"destination":{"ton":3,"address":"24273"},' +
        '"message":{"type":"hexEncodedText","udh":true,"content":"0608041A2B0202776F726C64"}}}',
    );
  });

  it('turns a <content> element into the attribute', () => {
    const encoded = encodeMobileOriginate(decodeFixture('mobile-originate/content-element.xml'), 'xml');
    expect(encoded).toContain('<message type="hexEncodedText" udh="false" content="48656C6C6F0D0A776F726C64"/>');
  });
});
