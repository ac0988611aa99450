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
    // Unknown members
    ['unknown attributes and members ignored', status, '{"mtStatus":{"ticketId":"A1-B2","code":4,"carrier":"x","extra":{"a":1}}}', 'json', { ticketId: 'A1-B2', code: 4 }],
    // Timestamps
    ['an offset timestamp, kept as text', inbound, moXml('<message type="text" content="x"/>').replace('ticketId', 'submittedDate="2015-08-29T15:10:03.029-05:00" ticketId'), 'xml', { submittedDate: '2015-08-29T15:10:03.029-05:00' }],
    // Integers
    ['integers as digit strings in JSON', receipt, '{"deliveryReceipt":{"type":"final","mtStatus":{"ticketId":"A1-B2","code":"811","segmentNumber":"2","totalSegments":"3","mobileOperatorId":"077"}}}', 'json', { mtStatus: { code: 811, segmentNumber: 2, totalSegments: 3, mobileOperatorId: 77 } }],
    ['integers as JSON numbers', inbound, moJson('{"type":"text","content":"x"}', ',"ton":1,"mobileOperatorId":383'), 'json', { source: { ton: 1, mobileOperatorId: 383 } }],
    ['the largest safe integer', status, `{"mtStatus":{"ticketId":"A1-B2","code":"${Number.MAX_SAFE_INTEGER}"}}`, 'json', { code: Number.MAX_SAFE_INTEGER }],
    // Booleans
    ['Booleans as strings', inbound, moJson('{"type":"binary","udh":"false","content":"00"}'), 'json', { message: { udh: false } }],
    ['Booleans in XML', preview, '<preview><destination phoneNumber="1" wireless="true"/><mobileOperator mobileOperatorId="3" wapPush="false"/></preview>', 'xml', { destination: { wireless: true }, mobileOperator: { wapPush: false } }],
    // Ticket IDs
    ['a ticket ID with a last group of six', status, '<mtStatus ticketId="03155-0331L-1439U-51SLFX" code="4"/>', 'xml', { ticketId: '03155-0331L-1439U-51SLFX' }],
    // Error codes
    ['an error code as a JSON number', errorRecord, '{"error":{"code":711,"description":"Ticket ID not found"}}', 'json', { code: '711' }],
    // Spelling variants
    ['alpha2code in a JSON receipt', receipt, '{"deliveryReceipt":{"type":"final","mtStatus":{"ticketId":"A1-B2","code":4},"destination":{"address":"1","alpha2code":"US"}}}', 'json', { destination: { alpha2Code: 'US' } }],
    ['operator and alpha2code in a JSON lookup', preview, '{"preview":{"destination":{"phoneNumber":"1","alpha2code":"US"},"operator":{"mobileOperatorId":383}}}', 'json', { destination: { alpha2Code: 'US' }, mobileOperator: { mobileOperatorId: 383 } }],
    // Receipt layout
    ['destination and source inside mtStatus, JSON', receipt, '{"deliveryReceipt":{"type":"final","mtStatus":{"ticketId":"A1-B2","code":4,"destination":{"address":"1"},"source":{"address":"2","ton":"3"}}}}', 'json', { destination: { address: '1' }, source: { address: '2', ton: 3 } }],
    // Segments
    ['one segment object in JSON', status, '{"mtStatus":{"ticketId":"A1-B2","code":4,"segments":{"segment":{"segmentNumber":1,"code":4}}}}', 'json', { segments: [{ segmentNumber: 1, code: 4 }] }],
    // Content
    ['content as an attribute', callback, moXml('<message type="text" content="a &amp; b"/>'), 'xml', { message: { content: 'a & b' } }],
    ['content as an element, prefixed', callback, MO('mo:mobileOriginate xmlns:mo="http://sms.openmarket.com/v4/mo"', '<mo:source address="1"/><mo:destination address="2"/><mo:message type="text"><mo:content>hi</mo:content></mo:message>'), 'xml', { message: { content: 'hi' } }],
    ['content as CDATA, read literally', callback, moXml('<message type="text"><content><![CDATA[a <b> & c]]></content></message>'), 'xml', { message: { content: 'a <b> & c' } }],
    ['content given both ways, the same', callback, moXml('<message type="text" content="x"><content>x</content></message>'), 'xml', { message: { content: 'x' } }],
    ['hex content with white space, udh true: taken as received, the header problem said', callback, moXml('<message type="hexEncodedText" udh="true"><content>\n  0500034A020148656C6C6F\n</content></message>'), 'xml', { message: { content: '\n  0500034A020148656C6C6F\n' }, headerProblem: 'mobileOriginate.message.content does not start with a valid user data header (udh is true): U+000A at offset 0 is not a hexadecimal digit' }],
    ['text content kept with its white space', callback, moXml('<message type="text"><content>  two  spaces\n</content></message>'), 'xml', { message: { content: '  two  spaces\n' } }],
    // Types
    ['a message type the toolkit does not know, kept', inbound, moJson('{"type":"unicodeText","content":"x"}'), 'json', { message: { type: 'unicodeText' } }],
  ])('%s', (_name, decode, body, format, expected) => {
    const result = decode(body, format);
    if (!result.ok) throw new Error(result.error.description);
    expect(result.value).toMatchObject(expected as object);
  });
});

describe('refused, naming the member', () => {
  it.each<[string, Decode, string, WireFormat, string, string]>([
    ['a timestamp without a time zone', inbound, moXml('<message type="text" content="x"/>').replace('ticketId', 'submittedDate="2015-08-29T15:10:03" ticketId'), 'xml', 'mobileOriginate.submittedDate', 'Member mobileOriginate.submittedDate must be an xs:dateTime with a time zone: no time zone (Z or ±hh:mm)'],
    ['a signed integer', status, '<mtStatus ticketId="A1-B2" code="+4"/>', 'xml', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['an integer with spaces', status, '{"mtStatus":{"ticketId":"A1-B2","code":" 4"}}', 'json', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['an integer beyond 2^53 - 1', status, '{"mtStatus":{"ticketId":"A1-B2","code":"9007199254740992"}}', 'json', 'mtStatus.code', 'Member mtStatus.code must be a non-negative integer'],
    ['segment number 0', receipt, '<deliveryReceipt type="final"><mtStatus ticketId="A1-B2" code="4" segmentNumber="0"/></deliveryReceipt>', 'xml', 'deliveryReceipt.mtStatus.segmentNumber', 'Member deliveryReceipt.mtStatus.segmentNumber must be a positive integer'],
    ['xs:boolean 1', inbound, moXml('<message type="binary" udh="1" content="00"/>'), 'xml', 'mobileOriginate.message.udh', 'Member mobileOriginate.message.udh must be true or false'],
    ['a ticket ID without a hyphen', status, '<mtStatus ticketId="A1B2" code="4"/>', 'xml', 'mtStatus.ticketId', 'Member mtStatus.ticketId must be a ticket ID (hyphen-separated groups of letters and digits)'],
    ['content given both ways, different', callback, moXml('<message type="text" content="x"><content>y</content></message>'), 'xml', 'mobileOriginate.message.content', 'Member mobileOriginate.message.content must be one string (the content attribute or one <content> element)'],
    ['an address as a JSON number', inbound, moJson('{"type":"text","content":"x"}').replace('"address":"1"', '"address":12065551234'), 'json', 'mobileOriginate.source.address', 'Member mobileOriginate.source.address must be a non-empty string'],
    ['a receipt without its type', receipt, '<deliveryReceipt><mtStatus ticketId="A1-B2" code="4"/></deliveryReceipt>', 'xml', 'deliveryReceipt.type', 'Required member deliveryReceipt.type is missing'],
    ['a receipt of another type', receipt, '<deliveryReceipt type="intermediate"><mtStatus ticketId="A1-B2" code="4"/></deliveryReceipt>', 'xml', 'deliveryReceipt.type', 'Member deliveryReceipt.type must be "final"'],
    ['an inbound message without its sender', inbound, moJson('{"type":"text","content":"x"}').replace('"source":{"address":"1"}', '"source":{}'), 'json', 'mobileOriginate.source.address', 'Required member mobileOriginate.source.address is missing'],
    ['an empty message type', inbound, moJson('{"type":"","content":"x"}'), 'json', 'mobileOriginate.message.type', 'Member mobileOriginate.message.type must be a non-empty string'],
  ])('%s', (_name, decode, body, format, path, description) => {
    const result = decode(body, format);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ path, description });
  });

  it('the Invoke Service error code as a digit string is taken, as a word refused', () => {
    expect(decodeInvokeErrorBody('{"error":{"code":"12002","description":"x"}}')).toStrictEqual({ ok: true, value: { code: 12002, description: 'x' } });
    expect(decodeInvokeErrorBody('{"error":{"code":"bad","description":"x"}}')).toMatchObject({ ok: false, error: { path: 'error.code' } });
  });
});
