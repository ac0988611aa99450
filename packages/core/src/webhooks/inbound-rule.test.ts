// The inbound rule, row by row (core README, "The inbound rule"): every form the service's
// documents, schemas and serializers produce is taken; what cannot be taken without guessing is
// refused naming the member.
import { describe, expect, it } from 'vitest';
import type { WireFormat } from '../codec/wire-format.js';
import { decodeDeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { decodeErrorRecord } from '../error-record/error-record.js';
import { decodeInvokeErrorBody } from '../error-record/invoke-error-body.js';
import { decodeMobileOriginate } from '../mobile-originate/mobile-originate.js';
import { decodeMtStatus } from '../mt-status/mt-status.js';
import { decodePreview } from '../preview/preview.js';
import type { Result } from '../result.js';
import { decodeCallback } from './decode-callback.js';
import { decodeInboundText } from './inbound-content.js';

type Decode = (body: string, format: WireFormat) => Result<unknown, { code: string; path?: string; description: string }>;

const status: Decode = decodeMtStatus;
const receipt: Decode = decodeDeliveryReceipt;
const inbound: Decode = decodeMobileOriginate;
const preview: Decode = decodePreview;
const errorRecord: Decode = decodeErrorRecord;
const callback: Decode = (body, format) => {
  const r = decodeCallback(body, format);
  if (!r.ok) return r;
  if (r.value.kind === 'delivery-receipt') return { ok: true, value: r.value.receipt };
  const { message, headerProblem } = r.value;
  return { ok: true, value: headerProblem === undefined ? message : { ...message, headerProblem } };
};
/** The callback decoder's whole answer for an inbound message: the message, its header, concatenation and payload. */
const inboundCallback: Decode = (body, format) => {
  const r = decodeCallback(body, format);
  return r.ok && r.value.kind === 'inbound-message' ? { ok: true, value: r.value } : { ok: false, error: r.ok ? { code: 'not-inbound', description: 'not an inbound message' } : r.error };
};
/** The text of inbound content in the charset `GSM`: `undefined` when it has none (content that is not hex). */
const inboundText: Decode = (body, format) => {
  const r = decodeCallback(body, format);
  if (!r.ok || r.value.kind !== 'inbound-message') return { ok: false, error: { code: 'not-inbound', description: 'not an inbound message' } };
  const text = decodeInboundText(r.value.payload, 'GSM');
  return { ok: true, value: { content: r.value.message.message.content, text: text.ok ? text.value.text : undefined, textProblem: text.ok ? undefined : text.error.message } };
};

const MO = (root: string, inner: string, attrs = 'ticketId="A1-B2"') => `<${root} ${attrs}>${inner}</${root.split(' ')[0]}>`;
const moXml = (message: string, ns = '') => MO(`mobileOriginate${ns}`, `<source address="1"/><destination address="2"/>${message}`);
const moJson = (message: string, extra = '') =>
  `{"mobileOriginate":{"ticketId":"A1-B2","source":{"address":"1"${extra}},"destination":{"address":"2"},"message":${message}}}`;

describe('taken', () => {
  it.each<[string, Decode, string, WireFormat, unknown]>([
    // Whole document
    ['MO namespace, https', inbound, moXml('<message type="text" content="x"/>', ' xmlns="https://sms.openmarket.com/v4/mo"'), 'xml', { message: { content: 'x' } }],
    [
      'prefixed MT namespace',
      receipt,
      '<ns2:deliveryReceipt xmlns:ns2="http://sms.openmarket.com/v4/mt" type="final"><ns2:mtStatus ticketId="A1-B2" code="4"/></ns2:deliveryReceipt>',
      'xml',
      { mtStatus: { code: 4 } },
    ],
    ['no namespace, declaration and comments', status, '<?xml version="1.0" encoding="utf-8"?><!-- status --><mtStatus ticketId="A1-B2" code="2"/>', 'xml', { code: 2 }],
    ['default MT namespace, http, white space between elements', receipt, '<deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final">\n  <mtStatus ticketId="A1-B2" code="4"/>\n</deliveryReceipt>\n', 'xml', { mtStatus: { code: 4 } }],
    ['MT namespace, https', status, '<mtStatus xmlns="https://sms.openmarket.com/v4/mt" ticketId="A1-B2" code="4"/>', 'xml', { code: 4 }],
    ['a byte order mark, XML', status, '\uFEFF<mtStatus ticketId="A1-B2" code="4"/>', 'xml', { code: 4 }],
    ['a byte order mark, JSON', status, '\uFEFF{"mtStatus":{"ticketId":"A1-B2","code":4}}', 'json', { code: 4 }],
    // Unknown members
    ['unknown attributes and members ignored', status, '{"mtStatus":{"ticketId":"A1-B2","code":4,"carrier":"x","extra":{"a":1}}}', 'json', { ticketId: 'A1-B2', code: 4 }],
    // Timestamps
    ['a timestamp without a fraction, kept as text', status, '<mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-03-14T09:26:53Z"/>', 'xml', { deliveryDate: '2024-03-14T09:26:53Z' }],
    ['a timestamp with nine fraction digits and +14:00, in a segment', status, '{"mtStatus":{"ticketId":"A1-B2","code":4,"segments":[{"segmentNumber":1,"code":4,"deliveryDate":"2024-03-14T09:26:53.123456789+14:00"}]}}', 'json', { segments: [{ deliveryDate: '2024-03-14T09:26:53.123456789+14:00' }] }],
    ['24:00:00 with white space around it, in a receipt', receipt, '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4" deliveryDate=" 2024-03-14T24:00:00-05:00 "/></deliveryReceipt>', 'xml', { mtStatus: { deliveryDate: ' 2024-03-14T24:00:00-05:00 ' } }],
    ['the last instant, written at -14:00', status, '<mtStatus ticketId="A1-B2" code="4" deliveryDate="9999-12-31T09:59:59.999-14:00"/>', 'xml', { deliveryDate: '9999-12-31T09:59:59.999-14:00' }],
    ['an offset timestamp, kept as text', inbound, moXml('<message type="text" content="x"/>').replace('ticketId', 'submittedDate="2015-08-29T15:10:03.029-05:00" ticketId'), 'xml', { submittedDate: '2015-08-29T15:10:03.029-05:00' }],
    // Integers
    ['integers as digit strings in JSON', receipt, '{"deliveryReceipt":{"type":"final","mtStatus":{"ticketId":"A1-B2","code":"811","segmentNumber":"2","totalSegments":"3","mobileOperatorId":"077"}}}', 'json', { mtStatus: { code: 811, segmentNumber: 2, totalSegments: 3, mobileOperatorId: 77 } }],
    ['integers as JSON numbers', inbound, moJson('{"type":"text","content":"x"}', ',"ton":1,"mobileOperatorId":383'), 'json', { source: { ton: 1, mobileOperatorId: 383 } }],
    ['integers as XML attributes', inbound, moXml('<message type="text" content="x"/>').replace('<source address="1"/>', '<source address="1" ton="3" mobileOperatorId="0383"/>'), 'xml', { source: { ton: 3, mobileOperatorId: 383 } }],
    ['the largest safe integer', status, `{"mtStatus":{"ticketId":"A1-B2","code":"${Number.MAX_SAFE_INTEGER}"}}`, 'json', { code: Number.MAX_SAFE_INTEGER }],
    // Booleans
    ['Booleans as strings', inbound, moJson('{"type":"binary","udh":"false","content":"00"}'), 'json', { message: { udh: false } }],
    ['Booleans as JSON Booleans', inbound, moJson('{"type":"binary","udh":false,"content":"00"}'), 'json', { message: { udh: false } }],
    ['Booleans in XML', preview, '<preview><destination phoneNumber="1" wireless="true"/><mobileOperator mobileOperatorId="3" wapPush="false"/></preview>', 'xml', { destination: { wireless: true }, mobileOperator: { wapPush: false } }],
    // Ticket IDs
    ['a ticket ID with a last group of six', status, '<mtStatus ticketId="03155-0331L-1439U-51SLFX" code="4"/>', 'xml', { ticketId: '03155-0331L-1439U-51SLFX' }],
    ['a ticket ID with a last group of five', status, '<mtStatus ticketId="44101-0922I-13413-21GDL" code="4"/>', 'xml', { ticketId: '44101-0922I-13413-21GDL' }],
    ['a ticket ID of 64 characters', status, `<mtStatus ticketId="${'A'.repeat(31)}-${'B'.repeat(32)}" code="4"/>`, 'xml', { ticketId: `${'A'.repeat(31)}-${'B'.repeat(32)}` }],
    // Error codes
    ['an error code as a JSON number', errorRecord, '{"error":{"code":711,"description":"Ticket ID not found"}}', 'json', { code: '711' }],
    ['an error code as a string of digits', errorRecord, '<error code="711" description="Ticket ID not found"/>', 'xml', { code: '711' }],
    // Spelling variants
    ['alpha2code in a JSON receipt', receipt, '{"deliveryReceipt":{"type":"final","mtStatus":{"ticketId":"A1-B2","code":4},"destination":{"address":"1","alpha2code":"US"}}}', 'json', { destination: { alpha2Code: 'US' } }],
    ['alpha2code in an XML status', status, '<mtStatus ticketId="A1-B2" code="4"><destination address="1" alpha2code="US"/></mtStatus>', 'xml', { destination: { alpha2Code: 'US' } }],
    ['alpha2Code in an XML receipt', receipt, '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4"/><destination address="1" alpha2Code="GB"/></deliveryReceipt>', 'xml', { destination: { alpha2Code: 'GB' } }],
    ['operator and alpha2code in an XML lookup', preview, '<preview><destination phoneNumber="1" alpha2code="US"/><operator mobileOperatorId="383"/></preview>', 'xml', { destination: { alpha2Code: 'US' }, mobileOperator: { mobileOperatorId: 383 } }],
    ['operator and alpha2code in a JSON lookup', preview, '{"preview":{"destination":{"phoneNumber":"1","alpha2code":"US"},"operator":{"mobileOperatorId":383}}}', 'json', { destination: { alpha2Code: 'US' }, mobileOperator: { mobileOperatorId: 383 } }],
    // Receipt layout
    ['destination and source inside mtStatus, JSON', receipt, '{"deliveryReceipt":{"type":"final","mtStatus":{"ticketId":"A1-B2","code":4,"destination":{"address":"1"},"source":{"address":"2","ton":"3"}}}}', 'json', { destination: { address: '1' }, source: { address: '2', ton: 3 } }],
    ['destination and source inside mtStatus, XML', receipt, '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4"><destination address="1"/><source address="2"/></mtStatus></deliveryReceipt>', 'xml', { destination: { address: '1' }, source: { address: '2' } }],
    ['destination and source beside mtStatus (the spec), JSON', receipt, '{"deliveryReceipt":{"type":"final","mtStatus":{"ticketId":"A1-B2","code":4},"destination":{"address":"1"},"source":{"address":"2"}}}', 'json', { destination: { address: '1' }, source: { address: '2' } }],
    // Segments
    ['segments as XML elements', status, '<mtStatus ticketId="A1-B2" code="830"><segments><segment segmentNumber="1" code="4"/><segment segmentNumber="2" code="811"/></segments></mtStatus>', 'xml', { segments: [{ segmentNumber: 1, code: 4 }, { segmentNumber: 2, code: 811 }] }],
    ['segments as a JSON list', status, '{"mtStatus":{"ticketId":"A1-B2","code":830,"segments":[{"segmentNumber":1,"code":4},{"segmentNumber":2,"code":811}]}}', 'json', { segments: [{ segmentNumber: 1 }, { segmentNumber: 2 }] }],
    ['segments as {"segment": [...]} in JSON', status, '{"mtStatus":{"ticketId":"A1-B2","code":830,"segments":{"segment":[{"segmentNumber":1,"code":4},{"segmentNumber":2,"code":811}]}}}', 'json', { segments: [{ segmentNumber: 1 }, { segmentNumber: 2 }] }],    ['one segment object in JSON', status, '{"mtStatus":{"ticketId":"A1-B2","code":4,"segments":{"segment":{"segmentNumber":1,"code":4}}}}', 'json', { segments: [{ segmentNumber: 1, code: 4 }] }],
    // Content
    ['content as an attribute', callback, moXml('<message type="text" content="a &amp; b"/>'), 'xml', { message: { content: 'a & b' } }],
    ['content as an element, prefixed', callback, MO('mo:mobileOriginate xmlns:mo="http://sms.openmarket.com/v4/mo"', '<mo:source address="1"/><mo:destination address="2"/><mo:message type="text"><mo:content>hi</mo:content></mo:message>'), 'xml', { message: { content: 'hi' } }],
    ['content as CDATA, read literally', callback, moXml('<message type="text"><content><![CDATA[a <b> & c]]></content></message>'), 'xml', { message: { content: 'a <b> & c' } }],
    ['content given both ways, the same', callback, moXml('<message type="text" content="x"><content>x</content></message>'), 'xml', { message: { content: 'x' } }],
    ['hex content with white space, udh true: taken as received, the header problem said', callback, moXml('<message type="hexEncodedText" udh="true"><content>\n  0500034A020148656C6C6F\n</content></message>'), 'xml', { message: { content: '\n  0500034A020148656C6C6F\n' }, headerProblem: 'mobileOriginate.message.content does not start with a valid user data header (udh is true): U+000A at offset 0 is not a hexadecimal digit' }],
    ['content as a JSON member', callback, moJson('{"type":"text","content":"a & b"}'), 'json', { message: { content: 'a & b' } }],
    ['hex content that is not hex: taken as received, no text', inboundText, moXml('<message type="hexEncodedText" content="zz"/>'), 'xml', { content: 'zz', text: undefined, textProblem: "'z' (U+007A) at offset 0 is not a hexadecimal digit" }],
    ['binary content that is not hex: taken as received', inboundText, moJson('{"type":"binary","content":"0G"}'), 'json', { content: '0G', text: undefined, textProblem: "'G' (U+0047) at offset 1 is not a hexadecimal digit" }],
    ['hex content that is not hex, udh true: taken as received, the header problem said', callback, moXml('<message type="hexEncodedText" udh="true" content="zz"/>'), 'xml', { message: { content: 'zz', udh: true }, headerProblem: 'mobileOriginate.message.content does not start with a valid user data header (udh is true): \'z\' (U+007A) at offset 0 is not a hexadecimal digit' }],
    ['text content kept with its white space', callback, moXml('<message type="text"><content>  two  spaces\n</content></message>'), 'xml', { message: { content: '  two  spaces\n' } }],
    // Types
    ['a message type the toolkit does not know, kept', inbound, moJson('{"type":"unicodeText","content":"x"}'), 'json', { message: { type: 'unicodeText' } }],
    ['hexEncodedText read as text', inboundText, moXml('<message type="hexEncodedText" content="48656C6C6F"/>'), 'xml', { content: '48656C6C6F', text: 'Hello' }],
    ['text kept as text', inboundText, moXml('<message type="text" content="48656C6C6F"/>'), 'xml', { content: '48656C6C6F', text: 'Hello' }],
    // udh: true
    ['an 8-bit concatenation header', inboundCallback, moXml('<message type="hexEncodedText" udh="true" content="0500034A020148656C6C6F"/>'), 'xml', { concatenation: { referenceBits: 8, reference: 0x4a, total: 2, sequence: 1 }, payload: '48656C6C6F', key: 'inbound:A1-B2:8-74:1' }],
    ['a 16-bit concatenation header', inboundCallback, moJson('{"type":"binary","udh":true,"content":"0608041234030200FF"}'), 'json', { concatenation: { referenceBits: 16, reference: 0x1234, total: 3, sequence: 2 }, payload: '00FF' }],
    ['a header element the toolkit does not know, kept', inboundCallback, moXml('<message type="binary" udh="true" content="0370010AFF"/>'), 'xml', { header: { elements: [{ iei: 0x70, data: Uint8Array.of(0x0a) }] }, payload: 'FF' }],
    ['a header that runs past the content: taken whole, the header problem said', inboundCallback, moXml('<message type="binary" udh="true" content="0500034A"/>'), 'xml', { message: { message: { content: '0500034A' } }, payload: '0500034A', headerProblem: expect.stringMatching(/^mobileOriginate\.message\.content does not start with a valid user data header \(udh is true\): /) }],
    // Addresses
    ['addresses as strings, leading zeros and plus kept', inbound, moJson('{"type":"text","content":"x"}').replace('"address":"1"', '"address":"+0012065551234"'), 'json', { source: { address: '+0012065551234' } }],
  ])('%s', (_name, decode, body, format, expected) => {
    const result = decode(body, format);
    if (!result.ok) throw new Error(result.error.description);
    expect(result.value).toMatchObject(expected as object);
  });
});

describe('unknown members', () => {
  it.each<[string, Decode, string, WireFormat, unknown]>([
    ['JSON, prototype names among them', status, '{"mtStatus":{"ticketId":"A1-B2","code":4,"carrier":"x","__proto__":{"polluted":1},"constructor":"y","prototype":{},"destination":{"address":"1","extra":2}}}', 'json', { ticketId: 'A1-B2', code: 4, destination: { address: '1' } }],
    ['XML attributes and elements, prototype names among the attributes', receipt, '<deliveryReceipt type="final" extra="1" __proto__="z"><mtStatus ticketId="A1-B2" code="4" constructor="x" prototype="w"><carrier name="y"/></mtStatus><other/></deliveryReceipt>', 'xml', { type: 'final', mtStatus: { ticketId: 'A1-B2', code: 4 } }],
  ])('are ignored and never appear in the decoded value: %s', (_name, decode, body, format, expected) => {
    const result = decode(body, format);
    expect(result).toStrictEqual({ ok: true, value: expected });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('refused, naming the member', () => {
  // The path is undefined where the whole body is refused (no member to name).
  it.each<[string, Decode, string, WireFormat, string | undefined, string]>([
    // Whole document
    ['a DOCTYPE with an entity', status, '<!DOCTYPE mtStatus [<!ENTITY a "4">]><mtStatus ticketId="A1-B2" code="&a;"/>', 'xml', undefined, 'Invalid XML in the payload - not well-formed, or holds a DOCTYPE or an entity declaration'],
    ['an undeclared entity', status, '<mtStatus ticketId="A1-B2" code="4" description="&nbsp;"/>', 'xml', undefined, 'Invalid XML in the payload - not well-formed, or holds a DOCTYPE or an entity declaration'],
    ['a repeated JSON member', status, '{"mtStatus":{"ticketId":"A1-B2","code":4,"code":811}}', 'json', undefined, 'Invalid JSON in the payload - a member is repeated'],
    // Timestamps
    ['a day its month lacks', receipt, '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4" deliveryDate="2015-02-30T15:10:03.029-05:00"/></deliveryReceipt>', 'xml', 'deliveryReceipt.mtStatus.deliveryDate', 'Member deliveryReceipt.mtStatus.deliveryDate must be an xs:dateTime with a time zone: day 30 does not exist in February 2015'],
    ['hour 24 other than 24:00:00', status, '{"mtStatus":{"ticketId":"A1-B2","code":4,"segments":[{"segmentNumber":1,"code":4,"deliveryDate":"2024-03-14T24:00:01Z"}]}}', 'json', 'mtStatus.segments[0].deliveryDate', 'Member mtStatus.segments[0].deliveryDate must be an xs:dateTime with a time zone: hour 24 is allowed only as 24:00:00'],
    ['second 60', status, '<mtStatus ticketId="A1-B2" code="4" deliveryDate="2016-12-31T23:59:60Z"/>', 'xml', 'mtStatus.deliveryDate', 'Member mtStatus.deliveryDate must be an xs:dateTime with a time zone: second 60 does not exist'],
    ['an offset beyond ±14:00', status, '<mtStatus ticketId="A1-B2" code="4" deliveryDate="2024-03-14T09:26:53+14:30"/>', 'xml', 'mtStatus.deliveryDate', 'Member mtStatus.deliveryDate must be an xs:dateTime with a time zone: offset +14:30 is beyond ±14:00'],
    ['year 0000', inbound, moJson('{"type":"text","content":"x"}').replace('"ticketId"', '"submittedDate":"0000-12-31T23:00:00Z","ticketId"'), 'json', 'mobileOriginate.submittedDate', 'Member mobileOriginate.submittedDate must be an xs:dateTime with a time zone: year 0000 is outside 0001 to 9999'],
    ['an instant in UTC after 9999', inbound, moJson('{"type":"text","content":"x"}').replace('"ticketId"', '"submittedDate":"9999-12-31T23:59:59-14:00","ticketId"'), 'json', 'mobileOriginate.submittedDate', 'Member mobileOriginate.submittedDate must be an xs:dateTime with a time zone: the instant in UTC falls outside 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z'],
    ['an instant in UTC before 0001', status, '<mtStatus ticketId="A1-B2" code="4" deliveryDate="0001-01-01T00:00:00+14:00"/>', 'xml', 'mtStatus.deliveryDate', 'Member mtStatus.deliveryDate must be an xs:dateTime with a time zone: the instant in UTC falls outside 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z'],
    ['a timestamp without a time zone', inbound, moXml('<message type="text" content="x"/>').replace('ticketId', 'submittedDate="2015-08-29T15:10:03" ticketId'), 'xml', 'mobileOriginate.submittedDate', 'Member mobileOriginate.submittedDate must be an xs:dateTime with a time zone: no time zone (Z or ±hh:mm)'],
    ['a signed integer', status, '<mtStatus ticketId="A1-B2" code="+4"/>', 'xml', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['an integer with spaces', status, '{"mtStatus":{"ticketId":"A1-B2","code":" 4"}}', 'json', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['an integer beyond 2^53 - 1', status, '{"mtStatus":{"ticketId":"A1-B2","code":"9007199254740992"}}', 'json', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['a decimal integer', status, '{"mtStatus":{"ticketId":"A1-B2","code":4.0001}}', 'json', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['a decimal in a digit string', status, '<mtStatus ticketId="A1-B2" code="4.0"/>', 'xml', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['an exponent', status, '{"mtStatus":{"ticketId":"A1-B2","code":"4e2"}}', 'json', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['empty text', status, '<mtStatus ticketId="A1-B2" code=""/>', 'xml', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['totalSegments 0', receipt, '{"deliveryReceipt":{"type":"final","mtStatus":{"ticketId":"A1-B2","code":4,"segmentNumber":1,"totalSegments":"0"}}}', 'json', 'deliveryReceipt.mtStatus.totalSegments', 'Member deliveryReceipt.mtStatus.totalSegments must be a positive integer'],
    ['segment number 0', receipt, '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4" segmentNumber="0"/></deliveryReceipt>', 'xml', 'deliveryReceipt.mtStatus.segmentNumber', 'Member deliveryReceipt.mtStatus.segmentNumber must be a positive integer'],
    ['a Boolean in capitals', inbound, moXml('<message type="binary" udh="TRUE" content="00"/>'), 'xml', 'mobileOriginate.message.udh', 'Member mobileOriginate.message.udh must be true or false'],
    ['a Boolean as a word', preview, '{"preview":{"destination":{"phoneNumber":"1","wireless":"yes"},"mobileOperator":{"mobileOperatorId":3}}}', 'json', 'preview.destination.wireless', 'Member preview.destination.wireless must be true or false'],
    ['xs:boolean 1', inbound, moXml('<message type="binary" udh="1" content="00"/>'), 'xml', 'mobileOriginate.message.udh', 'Member mobileOriginate.message.udh must be true or false'],
    ['a ticket ID without a hyphen', status, '<mtStatus ticketId="A1B2" code="4"/>', 'xml', 'mtStatus.ticketId', 'Member mtStatus.ticketId must be a ticket ID (hyphen-separated groups of letters and digits)'],
    ['a ticket ID with other characters', status, '<mtStatus ticketId="A1_B2" code="4"/>', 'xml', 'mtStatus.ticketId', 'Member mtStatus.ticketId must be a ticket ID (hyphen-separated groups of letters and digits)'],
    ['a ticket ID of 65 characters', status, `<mtStatus ticketId="${'A'.repeat(32)}-${'B'.repeat(32)}" code="4"/>`, 'xml', 'mtStatus.ticketId', 'Member mtStatus.ticketId must be a ticket ID (hyphen-separated groups of letters and digits)'],
    ['an empty segments container, XML', status, '<mtStatus ticketId="A1-B2" code="4"><segments/></mtStatus>', 'xml', 'mtStatus.segments', 'Member mtStatus.segments must be an element holding one or more segment elements'],
    ['an empty segments list, JSON', status, '{"mtStatus":{"ticketId":"A1-B2","code":4,"segments":[]}}', 'json', 'mtStatus.segments', 'Member mtStatus.segments must be a list of one or more segment objects'],
    ['a repeated segments container', status, '<mtStatus ticketId="A1-B2" code="4"><segments><segment segmentNumber="1" code="4"/></segments><segments><segment segmentNumber="2" code="4"/></segments></mtStatus>', 'xml', 'mtStatus.segments', 'Member mtStatus.segments must be an element holding one or more segment elements'],
    ['content given both ways, different', callback, moXml('<message type="text" content="x"><content>y</content></message>'), 'xml', 'mobileOriginate.message.content', 'Member mobileOriginate.message.content must be one string (the content attribute or one <content> element)'],
    ['an address as a JSON number', inbound, moJson('{"type":"text","content":"x"}').replace('"address":"1"', '"address":12065551234'), 'json', 'mobileOriginate.source.address', 'Member mobileOriginate.source.address must be a non-empty string'],
    ['a receipt without its type', receipt, '<deliveryReceipt><mtStatus ticketId="A1-B2" code="4"/></deliveryReceipt>', 'xml', 'deliveryReceipt.type', 'Required member deliveryReceipt.type is missing'],
    ['a receipt of another type', receipt, '<deliveryReceipt type="intermediate"><mtStatus ticketId="A1-B2" code="4"/></deliveryReceipt>', 'xml', 'deliveryReceipt.type', 'Member deliveryReceipt.type must be "final"'],
    ['a status without its code', status, '<mtStatus ticketId="A1-B2"/>', 'xml', 'mtStatus.code', 'Required member mtStatus.code is missing'],
    ['a receipt without its ticket ID', receipt, '{"deliveryReceipt":{"type":"final","mtStatus":{"code":4}}}', 'json', 'deliveryReceipt.mtStatus.ticketId', 'Required member deliveryReceipt.mtStatus.ticketId is missing'],
    ['an inbound message without content', callback, moXml('<message type="text"/>'), 'xml', 'mobileOriginate.message.content', 'Required member mobileOriginate.message.content is missing'],
    ['a lookup without the phone number', preview, '<preview><destination/><mobileOperator mobileOperatorId="3"/></preview>', 'xml', 'preview.destination.phoneNumber', 'Required member preview.destination.phoneNumber is missing'],
    ['an error record without its description', errorRecord, '{"error":{"code":"711"}}', 'json', 'error.description', 'Required member error.description is missing'],
    ['an inbound message without its sender', inbound, moJson('{"type":"text","content":"x"}').replace('"source":{"address":"1"}', '"source":{}'), 'json', 'mobileOriginate.source.address', 'Required member mobileOriginate.source.address is missing'],
    ['an empty message type', inbound, moJson('{"type":"","content":"x"}'), 'json', 'mobileOriginate.message.type', 'Member mobileOriginate.message.type must be a non-empty string'],
  ])('%s', (_name, decode, body, format, path, description) => {
    const result = decode(body, format);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toStrictEqual({ code: expect.any(String) as string, description, ...(path === undefined ? {} : { path }) });
  });

  it('an XML element named __proto__, constructor or prototype (no published document has one): refused as invalid XML', () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      expect(decodeDeliveryReceipt(`<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4"/><${name}/></deliveryReceipt>`, 'xml')).toStrictEqual({
        ok: false,
        error: { code: 'invalid-xml', description: 'Invalid XML in the payload - not well-formed, or holds a DOCTYPE or an entity declaration' },
      });
    }
  });

  it('text in another encoding than UTF-8', () => {
    const latin1 = Uint8Array.from([...'<mtStatus ticketId="A1-B2" code="4" description="caf"/>'].map((c) => c.charCodeAt(0)));
    const bytes = new Uint8Array([...latin1.subarray(0, -3), 0xe9, ...latin1.subarray(-3)]);
    expect(decodeMtStatus(bytes, 'xml')).toStrictEqual({ ok: false, error: { code: 'invalid-encoding', description: 'Payload is not valid UTF-8 text' } });
  });

  it('the Invoke Service error code as a digit string is taken, as a word refused', () => {
    expect(decodeInvokeErrorBody('{"error":{"code":"12002","description":"x"}}')).toStrictEqual({ ok: true, value: { code: 12002, description: 'x' } });
    expect(decodeInvokeErrorBody('{"error":{"code":"bad","description":"x"}}')).toMatchObject({ ok: false, error: { path: 'error.code' } });
  });
});
