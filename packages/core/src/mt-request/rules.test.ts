import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import type { MtInvalidRule } from '../errors/catalogue.js';
import { decodeMtRequest } from './codec.js';
import { MT_LIMITS } from './members.js';

/** The 540 descriptions exactly as the spec's table prints them. */
const SPEC_DESCRIPTIONS: Record<MtInvalidRule, string> = {
  mobileOperatorId: 'Invalid request - mobileOperatorId value is invalid',
  destinationAddress: 'Invalid request - destination address value is invalid',
  destinationAddressRequired: 'Invalid request - destination address is required',
  contentEmpty: 'Invalid request - message content must have a value',
  contentTooLong: 'Invalid request - message content exceeds 2680 bytes',
  contentInvalid: 'Invalid request - message content value is invalid',
  mlc: 'Invalid request - mlc value is invalid',
  promotional: 'Invalid request - promotional value is invalid',
  sourceTon: 'Invalid request - source ton value is invalid',
  sourceAddress: 'Invalid request - source address value is invalid',
  type: 'Invalid request - type value is invalid',
  charset: 'Invalid request - charset value is invalid',
  wapPushUrl: 'Invalid request - wapPush url value is invalid',
  validityPeriod: 'Invalid request - validityPeriod value is invalid',
  invalidXml: 'Invalid request - invalid XML in the payload',
  invalidJson: 'Invalid request - invalid JSON in the payload',
  messageRequired: 'Invalid request - message is required',
  note1: 'Invalid request - note1 value is invalid',
  note2: 'Invalid request - note2 value is invalid',
  programId: 'Invalid request - programId value is invalid',
  flash: 'Invalid request - flash value is invalid',
  udh: 'Invalid request - udh value is invalid',
  receiptRequestedRequired: 'Invalid request - receiptRequested is required as the request includes delivery',
  receiptRequested: 'Invalid request - receiptRequested value is invalid',
  deliveryUrl: 'Invalid request - delivery url value is invalid',
  interaction: 'Invalid request - interaction value is invalid',
};

const rejection = (rule: MtInvalidRule) => ({ ok: false, error: { code: '540', description: SPEC_DESCRIPTIONS[rule], rule } });

type Base = 'text-full' | 'hex-gsm' | 'hex-gsm-udh' | 'hex-latin1' | 'hex-utf8' | 'hex-utf16' | 'hex-max-octets' | 'binary' | 'wappush' | 'with-delivery';

/**
 * A mutation of a valid fixture: `set` maps member paths (`destination.address`, `interaction`,
 * `message.content`) to a new value, `undefined` removing the member; `remove` drops a whole object.
 * In XML a scalar member is the attribute of the element of the same name (root members on
 * `mobileTerminate`), and `message.content` is the text of `<content>`.
 */
interface Mutation {
  readonly name: string;
  readonly base?: Base;
  readonly set?: Readonly<Record<string, unknown>>;
  readonly remove?: string;
}

interface RowCase extends Mutation {
  readonly rule: MtInvalidRule;
}

const json = (base: Base): string => loadFixture(`mt-request/valid/json/${base}.json`);
const xml = (base: Base): string => loadFixture(`mt-request/valid/xml/${base}.xml`);

function mutateJson({ base = 'text-full', set = {}, remove }: Mutation): string {
  const doc = JSON.parse(json(base)) as { mobileTerminate: Record<string, unknown> };
  const mt = doc.mobileTerminate;
  if (remove !== undefined) {
    if (!(remove in mt)) throw new Error(`fixture ${base} has no ${remove}`);
    delete mt[remove];
  }
  for (const [path, value] of Object.entries(set)) {
    const parts = path.split('.');
    const leaf = parts.pop() as string;
    let node = mt;
    for (const part of parts) {
      if (typeof node[part] !== 'object') throw new Error(`fixture ${base} has no ${path}`);
      node = node[part] as Record<string, unknown>;
    }
    if (value === undefined) {
      if (!(leaf in node)) throw new Error(`fixture ${base} has no ${path}`);
      delete node[leaf];
    } else node[leaf] = value;
  }
  return JSON.stringify(doc);
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function mutateXml({ base = 'text-full', set = {}, remove }: Mutation): string {
  let text = xml(base);
  const before = text;
  if (remove !== undefined) {
    const element = new RegExp(`\\n\\s*<${remove}(?=[\\s/>])[^>]*?(/>|>[\\s\\S]*?</${remove}>)`);
    if (!element.test(text)) throw new Error(`fixture ${base} has no <${remove}>`);
    text = text.replace(element, '');
  }
  for (const [path, value] of Object.entries(set)) {
    if (path === 'message.content') {
      const content = /<content>[\s\S]*?<\/content>/;
      if (!content.test(text)) throw new Error(`fixture ${base} has no <content>`);
      text = text.replace(content, () => (value === undefined ? '' : `<content>${escapeText(String(value))}</content>`));
      continue;
    }
    const parts = path.split('.');
    const name = parts.pop() as string;
    const element = parts.length === 0 ? 'mobileTerminate' : (parts[0] as string);
    const tag = new RegExp(`<${element}(?=[\\s/>])([^>]*?)(/?)>`);
    const match = tag.exec(text);
    if (match === null) throw new Error(`fixture ${base} has no <${element}>`);
    let attributes = match[1] as string;
    const attribute = new RegExp(`\\s${name}="[^"]*"`);
    if (value === undefined) {
      if (!attribute.test(attributes)) throw new Error(`fixture ${base} has no ${path}`);
      attributes = attributes.replace(attribute, '');
    } else if (attribute.test(attributes)) {
      attributes = attributes.replace(attribute, () => ` ${name}="${escapeAttribute(String(value))}"`);
    } else attributes += ` ${name}="${escapeAttribute(String(value))}"`;
    text = text.replace(tag, () => `<${element}${attributes}${match[2] as string}>`);
  }
  if (text === before) throw new Error('the mutation changed nothing');
  return text;
}

const L = MT_LIMITS;

/** One case per condition of each row of the spec's 540 table; each runs in JSON and in XML. */
const ROWS: readonly RowCase[] = [
  { rule: 'mobileOperatorId', name: 'letters', set: { 'destination.mobileOperatorId': '38a' } },
  { rule: 'mobileOperatorId', name: 'a minus sign', set: { 'destination.mobileOperatorId': '-383' } },
  { rule: 'mobileOperatorId', name: 'a decimal point', set: { 'destination.mobileOperatorId': '383.5' } },
  { rule: 'mobileOperatorId', name: 'empty', set: { 'destination.mobileOperatorId': '' } },
  { rule: 'mobileOperatorId', name: 'a space', set: { 'destination.mobileOperatorId': ' 383' } },

  { rule: 'destinationAddress', name: 'empty', set: { 'destination.address': '' } },
  { rule: 'destinationAddress', name: 'shorter than 5 digits', set: { 'destination.address': '4477' } },
  { rule: 'destinationAddress', name: 'longer than 20 digits', set: { 'destination.address': '4'.repeat(21) } },
  { rule: 'destinationAddress', name: 'a leading +', set: { 'destination.address': '+447700900123' } },
  { rule: 'destinationAddress', name: 'a letter', set: { 'destination.address': '44770090012A' } },
  { rule: 'destinationAddress', name: 'a space', set: { 'destination.address': '4477 00900123' } },
  { rule: 'destinationAddress', name: 'non-ASCII digits', set: { 'destination.address': '٤٤٧٧٠٠٩٠٠١٢٣' } },

  { rule: 'destinationAddressRequired', name: 'address missing', set: { 'destination.address': undefined } },
  { rule: 'destinationAddressRequired', name: 'destination missing', remove: 'destination' },

  { rule: 'contentEmpty', name: 'empty text', set: { 'message.content': '' } },
  { rule: 'contentEmpty', name: 'content missing', set: { 'message.content': undefined } },
  { rule: 'contentEmpty', name: 'empty hex', base: 'hex-gsm', set: { 'message.content': '' } },

  { rule: 'contentTooLong', name: 'text of 2681 ASCII octets', set: { 'message.content': 'a'.repeat(L.contentMaxBytes + 1) } },
  { rule: 'contentTooLong', name: 'text of 894 euro signs (2682 UTF-8 octets in 894 characters)', set: { 'message.content': '€'.repeat(894) } },
  { rule: 'contentTooLong', name: 'wapPush text of 2681 octets', base: 'wappush', set: { 'message.content': 'x'.repeat(L.contentMaxBytes + 1) } },
  { rule: 'contentTooLong', name: 'hexEncodedText of 2681 octets', base: 'hex-max-octets', set: { 'message.content': '41'.repeat(L.contentMaxBytes + 1) } },
  { rule: 'contentTooLong', name: 'binary of 2681 octets', base: 'binary', set: { 'message.content': 'FF'.repeat(L.contentMaxBytes + 1) } },

  { rule: 'contentInvalid', name: 'hex with an odd number of digits', base: 'hex-gsm', set: { 'message.content': '48656C6C6' } },
  { rule: 'contentInvalid', name: 'hex with a non-hex character', base: 'hex-gsm', set: { 'message.content': '48656C6G6F' } },
  { rule: 'contentInvalid', name: 'hex with a space', base: 'hex-gsm', set: { 'message.content': '4865 6C6C' } },
  { rule: 'contentInvalid', name: 'GSM octet above 7F', base: 'hex-gsm', set: { 'message.content': '48E9' } },
  { rule: 'contentInvalid', name: 'GSM escape without an extension character', base: 'hex-gsm', set: { 'message.content': '481B41' } },
  { rule: 'contentInvalid', name: 'invalid UTF-8 octets', base: 'hex-utf8', set: { 'message.content': '48C328' } },
  { rule: 'contentInvalid', name: 'Latin-1 content read as UTF-8 (wrong charset)', base: 'hex-latin1', set: { 'message.charset': 'UTF-8' } },
  { rule: 'contentInvalid', name: 'UTF-16 with an odd number of octets', base: 'hex-utf16', set: { 'message.content': '004100' } },
  { rule: 'contentInvalid', name: 'UTF-16 with a lone surrogate', base: 'hex-utf16', set: { 'message.content': 'D83D0041' } },
  { rule: 'contentInvalid', name: 'a user data header longer than the content', base: 'hex-gsm-udh', set: { 'message.content': '0A0003CC0201' } },
  { rule: 'contentInvalid', name: 'binary content that is not hex', base: 'binary', set: { 'message.content': 'DEADBEEZ' } },
  { rule: 'contentInvalid', name: 'binary content with an odd number of digits', base: 'binary', set: { 'message.content': 'ABC' } },

  { rule: 'mlc', name: 'wrong case', set: { 'message.mlc': 'Segment' } },
  { rule: 'mlc', name: 'not an option', set: { 'message.mlc': 'split' } },
  { rule: 'mlc', name: 'empty', set: { 'message.mlc': '' } },

  { rule: 'promotional', name: 'yes', set: { promotional: 'yes' } },
  { rule: 'promotional', name: 'upper case', set: { promotional: 'TRUE' } },
  { rule: 'promotional', name: '1', set: { promotional: '1' } },

  { rule: 'sourceTon', name: '2', set: { 'source.ton': '2' } },
  { rule: 'sourceTon', name: '0', set: { 'source.ton': '0' } },
  { rule: 'sourceTon', name: '7', set: { 'source.ton': '7' } },
  { rule: 'sourceTon', name: 'not a number', set: { 'source.ton': 'short' } },
  { rule: 'sourceTon', name: 'empty', set: { 'source.ton': '' } },

  { rule: 'sourceAddress', name: 'source without an address', set: { 'source.address': undefined } },
  { rule: 'sourceAddress', name: 'ton 1 with letters', set: { 'source.ton': '1', 'source.address': 'Acme1' } },
  { rule: 'sourceAddress', name: 'ton 3 with a +', set: { 'source.address': '+60001' } },
  { rule: 'sourceAddress', name: 'ton 3 with letters', set: { 'source.address': '6000A' } },
  { rule: 'sourceAddress', name: 'ton 5 with an underscore', set: { 'source.ton': '5', 'source.address': 'Acme_Co' } },
  { rule: 'sourceAddress', name: 'ton 5 with a space', set: { 'source.ton': '5', 'source.address': 'Acme Co' } },
  { rule: 'sourceAddress', name: 'ton 5 with a non-ASCII letter', set: { 'source.ton': '5', 'source.address': 'Café' } },
  { rule: 'sourceAddress', name: 'over 20 characters', set: { 'source.ton': '5', 'source.address': 'A'.repeat(L.sourceAddressMaxLength + 1) } },
  { rule: 'sourceAddress', name: 'empty', set: { 'source.address': '' } },
  { rule: 'sourceAddress', name: 'no ton and a character outside A-Z a-z 0-9', set: { 'source.ton': undefined, 'source.address': 'Acme!' } },

  { rule: 'type', name: 'not an option', set: { 'message.type': 'sms' } },
  { rule: 'type', name: 'wrong case', set: { 'message.type': 'Text' } },
  { rule: 'type', name: 'missing', set: { 'message.type': undefined } },

  { rule: 'charset', name: 'not an option', base: 'hex-gsm', set: { 'message.charset': 'UCS-2' } },
  { rule: 'charset', name: 'wrong case', base: 'hex-utf8', set: { 'message.charset': 'utf-8' } },
  { rule: 'charset', name: 'missing when type is hexEncodedText', base: 'hex-gsm', set: { 'message.charset': undefined } },
  { rule: 'charset', name: 'not an option on a text message', set: { 'message.charset': 'ASCII' } },

  { rule: 'wapPushUrl', name: 'missing when type is wapPush', base: 'wappush', set: { 'message.url': undefined } },
  { rule: 'wapPushUrl', name: 'not http or https', base: 'wappush', set: { 'message.url': 'ftp://example.com/app' } },
  { rule: 'wapPushUrl', name: 'no scheme', base: 'wappush', set: { 'message.url': 'wap.example.com/app' } },
  { rule: 'wapPushUrl', name: 'an upper-case scheme', base: 'wappush', set: { 'message.url': 'HTTP://wap.example.com/app' } },
  { rule: 'wapPushUrl', name: 'shorter than 12 characters', base: 'wappush', set: { 'message.url': 'http://a.co' } },
  { rule: 'wapPushUrl', name: 'longer than 2048 characters', base: 'wappush', set: { 'message.url': `http://example.com/${'a'.repeat(2030)}` } },
  { rule: 'wapPushUrl', name: 'unparseable host', base: 'wappush', set: { 'message.url': 'http://[::1/app/index' } },
  { rule: 'wapPushUrl', name: 'port out of range', base: 'wappush', set: { 'message.url': 'http://example.com:99999/' } },
  { rule: 'wapPushUrl', name: 'a space', base: 'wappush', set: { 'message.url': 'http://example.com/my app' } },
  { rule: 'wapPushUrl', name: 'invalid on a text message', set: { 'message.url': 'www.example.com/info' } },

  { rule: 'validityPeriod', name: 'above 259200', set: { 'message.validityPeriod': String(L.validityPeriodMaxSeconds + 1) } },
  { rule: 'validityPeriod', name: 'negative', set: { 'message.validityPeriod': '-1' } },
  { rule: 'validityPeriod', name: 'decimals', set: { 'message.validityPeriod': '3600.5' } },
  { rule: 'validityPeriod', name: 'an exponent', set: { 'message.validityPeriod': '1e3' } },
  { rule: 'validityPeriod', name: 'letters', set: { 'message.validityPeriod': '1h' } },
  { rule: 'validityPeriod', name: 'empty', set: { 'message.validityPeriod': '' } },

  { rule: 'messageRequired', name: 'message missing', remove: 'message' },

  { rule: 'note1', name: 'over 200 characters', set: { 'options.note1': 'n'.repeat(L.noteMaxLength + 1) } },
  { rule: 'note1', name: 'over 200 characters with markup characters', set: { 'options.note1': '<&>"'.repeat(51) } },
  { rule: 'note2', name: 'over 200 characters', set: { 'options.note2': 'n'.repeat(L.noteMaxLength + 1) } },

  { rule: 'programId', name: 'empty', set: { 'options.programId': '' } },
  { rule: 'programId', name: 'over 50 characters', set: { 'options.programId': 'P'.repeat(L.programIdMaxLength + 1) } },

  { rule: 'flash', name: 'yes', set: { 'options.flash': 'yes' } },
  { rule: 'flash', name: 'upper case', set: { 'options.flash': 'True' } },

  { rule: 'udh', name: '1', set: { 'message.udh': '1' } },
  { rule: 'udh', name: 'no', base: 'hex-gsm-udh', set: { 'message.udh': 'no' } },

  { rule: 'receiptRequestedRequired', name: 'delivery without receiptRequested', set: { 'delivery.receiptRequested': undefined } },
  { rule: 'receiptRequestedRequired', name: 'delivery with nothing in it', set: { 'delivery.receiptRequested': undefined, 'delivery.url': undefined } },

  { rule: 'receiptRequested', name: 'wrong case', set: { 'delivery.receiptRequested': 'Final' } },
  { rule: 'receiptRequested', name: 'not final', set: { 'delivery.receiptRequested': 'intermediate' } },
  { rule: 'receiptRequested', name: 'empty', set: { 'delivery.receiptRequested': '' } },

  { rule: 'deliveryUrl', name: 'not http or https', set: { 'delivery.url': 'mailto:receipts@example.com' } },
  { rule: 'deliveryUrl', name: 'longer than 2048 characters', set: { 'delivery.url': `https://example.com/${'r'.repeat(2029)}` } },
  { rule: 'deliveryUrl', name: 'shorter than 12 characters', set: { 'delivery.url': 'http://e.co' } },
  { rule: 'deliveryUrl', name: 'unparseable', set: { 'delivery.url': 'https://exa%mple.com/receipts' } },
  { rule: 'deliveryUrl', name: 'a tab', set: { 'delivery.url': 'https://example.com/\treceipts' } },

  { rule: 'interaction', name: 'not an option', set: { interaction: 'oneway' } },
  { rule: 'interaction', name: 'wrong case', set: { interaction: 'One-Way' } },
  { rule: 'interaction', name: 'empty', set: { interaction: '' } },
];

describe('decodeMtRequest: every row of the 540 table', () => {
  for (const format of ['json', 'xml'] as const) {
    describe(format, () => {
      for (const c of ROWS) {
        it(`${c.rule}: ${c.name}`, () => {
          const body = format === 'json' ? mutateJson(c) : mutateXml(c);
          expect(decodeMtRequest(body, format)).toEqual(rejection(c.rule));
        });
      }
    });
  }

  it('covers every rule of the catalogue except the body rules', () => {
    const covered = new Set(ROWS.map((c) => c.rule));
    const uncovered = Object.keys(SPEC_DESCRIPTIONS).filter((rule) => !covered.has(rule as MtInvalidRule));
    expect(uncovered.sort()).toEqual(['invalidJson', 'invalidXml']);
  });
});

/** Values at the edges of each limit, accepted in both formats. */
const BOUNDARIES: readonly Mutation[] = [
  { name: 'destination address of 5 digits', set: { 'destination.address': '44770' } },
  { name: 'destination address of 20 digits', set: { 'destination.address': '4'.repeat(20) } },
  { name: 'mobileOperatorId 0', set: { 'destination.mobileOperatorId': '0' } },
  { name: 'source address of 20 characters with ton 5', set: { 'source.ton': '5', 'source.address': 'Ab1'.repeat(6) + 'Cd' } },
  { name: 'source address of 1 digit with ton 3', set: { 'source.address': '1' } },
  { name: 'numeric source address with ton 5', set: { 'source.ton': '5', 'source.address': '60001' } },
  { name: 'validityPeriod 0', set: { 'message.validityPeriod': '0' } },
  { name: 'validityPeriod 259200', set: { 'message.validityPeriod': String(L.validityPeriodMaxSeconds) } },
  { name: 'note1 and note2 of 200 characters', set: { 'options.note1': 'n'.repeat(200), 'options.note2': '&'.repeat(200) } },
  { name: 'empty note1', set: { 'options.note1': '' } },
  { name: 'programId of 1 character', set: { 'options.programId': 'P' } },
  { name: 'programId of 50 characters', set: { 'options.programId': 'P'.repeat(50) } },
  { name: 'url of 12 characters', base: 'wappush', set: { 'message.url': 'http://ab.co' } },
  { name: 'url of 2048 characters', base: 'wappush', set: { 'message.url': `http://example.com/${'a'.repeat(2029)}` } },
  { name: 'delivery url with a port, query and fragment', set: { 'delivery.url': 'https://example.com:8443/dr?x=1&y=2#f' } },
  { name: 'delivery url with an IP address', set: { 'delivery.url': 'http://192.0.2.10/receipts' } },
  { name: 'delivery url with a non-ASCII host', set: { 'delivery.url': 'https://bücher.example/dr' } },
  { name: 'text of 2680 ASCII octets', set: { 'message.content': 'a'.repeat(2680) } },
  { name: 'hexEncodedText of 2680 octets', base: 'hex-max-octets', set: { 'message.content': '6a'.repeat(2680) } },
  { name: 'lower-case hex', base: 'hex-gsm', set: { 'message.content': '48656c6c6f' } },
  { name: 'binary of 2680 octets', base: 'binary', set: { 'message.content': '00'.repeat(2680) } },
  { name: 'charset on a binary message is ignored', base: 'binary', set: { 'message.charset': 'GSM' } },
  { name: 'udh on a text message is ignored', set: { 'message.udh': 'true' } },
  { name: 'a url on a text message', set: { 'message.url': 'http://example.com/' } },
];

describe('decodeMtRequest: limits are inclusive', () => {
  for (const format of ['json', 'xml'] as const) {
    describe(format, () => {
      for (const m of BOUNDARIES) {
        it(m.name, () => {
          const body = format === 'json' ? mutateJson(m) : mutateXml(m);
          const result = decodeMtRequest(body, format);
          expect(result.ok, JSON.stringify(result)).toBe(true);
        });
      }
    });
  }
});

/** JSON values of a wrong type, each mapped to the most specific row. */
const WRONG_TYPES: readonly RowCase[] = [
  { rule: 'destinationAddressRequired', name: 'destination a string', set: { destination: '447700900123' } },
  { rule: 'destinationAddressRequired', name: 'destination null', set: { destination: null } },
  { rule: 'destinationAddressRequired', name: 'destination an array', set: { destination: [{ address: '447700900123' }] } },
  { rule: 'destinationAddress', name: 'destination address a number', set: { 'destination.address': 447700900123 } },
  { rule: 'destinationAddress', name: 'destination address null', set: { 'destination.address': null } },
  { rule: 'mobileOperatorId', name: 'mobileOperatorId a decimal number', set: { 'destination.mobileOperatorId': 383.5 } },
  { rule: 'mobileOperatorId', name: 'mobileOperatorId negative', set: { 'destination.mobileOperatorId': -1 } },
  { rule: 'mobileOperatorId', name: 'mobileOperatorId a Boolean', set: { 'destination.mobileOperatorId': true } },
  { rule: 'mobileOperatorId', name: 'mobileOperatorId beyond 2^53', set: { 'destination.mobileOperatorId': 2 ** 53 } },
  { rule: 'contentInvalid', name: 'content a number', set: { 'message.content': 5 } },
  { rule: 'contentInvalid', name: 'content null', set: { 'message.content': null } },
  { rule: 'contentInvalid', name: 'content an array', set: { 'message.content': ['hello'] } },
  { rule: 'contentInvalid', name: 'content an object', set: { 'message.content': { text: 'hello' } } },
  { rule: 'contentInvalid', name: 'text content with a lone surrogate', set: { 'message.content': 'bad \ud800 text' } },
  { rule: 'invalidJson', name: 'options an array', set: { options: [] } },
  { rule: 'invalidJson', name: 'options a string', set: { options: 'flash' } },
  { rule: 'invalidJson', name: 'options null', set: { options: null } },
  { rule: 'programId', name: 'programId a number', set: { 'options.programId': 12345 } },
  { rule: 'note1', name: 'note1 a number', set: { 'options.note1': 5 } },
  { rule: 'note2', name: 'note2 a Boolean', set: { 'options.note2': true } },
  { rule: 'flash', name: 'flash 1', set: { 'options.flash': 1 } },
  { rule: 'flash', name: 'flash null', set: { 'options.flash': null } },
  { rule: 'promotional', name: 'promotional 0', set: { promotional: 0 } },
  { rule: 'promotional', name: 'promotional null', set: { promotional: null } },
  { rule: 'sourceAddress', name: 'source a string', set: { source: '60001' } },
  { rule: 'sourceAddress', name: 'source null', set: { source: null } },
  { rule: 'sourceAddress', name: 'source an array', set: { source: [] } },
  { rule: 'sourceAddress', name: 'source address a number', set: { 'source.address': 60001 } },
  { rule: 'sourceTon', name: 'ton a decimal', set: { 'source.ton': 3.5 } },
  { rule: 'sourceTon', name: 'ton a Boolean', set: { 'source.ton': true } },
  { rule: 'sourceTon', name: 'ton written with a leading zero', set: { 'source.ton': '03' } },
  { rule: 'messageRequired', name: 'message a string', set: { message: 'hello' } },
  { rule: 'messageRequired', name: 'message null', set: { message: null } },
  { rule: 'messageRequired', name: 'message an array', set: { message: [] } },
  { rule: 'type', name: 'type a number', set: { 'message.type': 1 } },
  { rule: 'charset', name: 'charset a number', set: { 'message.charset': 8 } },
  { rule: 'charset', name: 'charset null', base: 'hex-gsm', set: { 'message.charset': null } },
  { rule: 'validityPeriod', name: 'validityPeriod a decimal number', set: { 'message.validityPeriod': 3600.5 } },
  { rule: 'validityPeriod', name: 'validityPeriod negative', set: { 'message.validityPeriod': -1 } },
  { rule: 'validityPeriod', name: 'validityPeriod above 259200', set: { 'message.validityPeriod': 259201 } },
  { rule: 'validityPeriod', name: 'validityPeriod a Boolean', set: { 'message.validityPeriod': true } },
  { rule: 'wapPushUrl', name: 'url a number', base: 'wappush', set: { 'message.url': 42 } },
  { rule: 'mlc', name: 'mlc null', set: { 'message.mlc': null } },
  { rule: 'udh', name: 'udh 1', set: { 'message.udh': 1 } },
  { rule: 'receiptRequestedRequired', name: 'delivery true', set: { delivery: true } },
  { rule: 'receiptRequestedRequired', name: 'delivery null', set: { delivery: null } },
  { rule: 'receiptRequestedRequired', name: 'delivery an array', set: { delivery: ['final'] } },
  { rule: 'receiptRequested', name: 'receiptRequested true', set: { 'delivery.receiptRequested': true } },
  { rule: 'receiptRequested', name: 'receiptRequested null', set: { 'delivery.receiptRequested': null } },
  { rule: 'deliveryUrl', name: 'delivery url a number', set: { 'delivery.url': 5 } },
  { rule: 'interaction', name: 'interaction null', set: { interaction: null } },
];

describe('decodeMtRequest: JSON values of the wrong type map to the most specific row', () => {
  for (const c of WRONG_TYPES) {
    it(`${c.rule}: ${c.name}`, () => {
      expect(decodeMtRequest(mutateJson(c), 'json')).toEqual(rejection(c.rule));
    });
  }
});

describe('decodeMtRequest: XML shapes', () => {
  it('content holding an element is "content value is invalid"', () => {
    const body = xml('text-full').replace('<content>Your code is 1234</content>', '<content>Your <b>code</b></content>');
    expect(decodeMtRequest(body, 'xml')).toEqual(rejection('contentInvalid'));
  });

  it('a destination with the number as text and no address attribute is "destination address is required"', () => {
    const body = xml('text-full').replace(/<destination [^>]*\/>/, '<destination>447700900123</destination>');
    expect(decodeMtRequest(body, 'xml')).toEqual(rejection('destinationAddressRequired'));
  });

  it('an empty <mobileTerminate/> is "destination address is required"', () => {
    expect(decodeMtRequest('<mobileTerminate/>', 'xml')).toEqual(rejection('destinationAddressRequired'));
  });

  it('an empty <content/> is "message content must have a value"', () => {
    const body = xml('text-full').replace('<content>Your code is 1234</content>', '<content/>');
    expect(decodeMtRequest(body, 'xml')).toEqual(rejection('contentEmpty'));
  });

  it('whitespace-only content is content (one octet or more)', () => {
    const body = xml('text-full').replace('<content>Your code is 1234</content>', '<content>  </content>');
    const result = decodeMtRequest(body, 'xml');
    expect(result.ok && result.value.message.content).toBe('  ');
  });
});

describe('decodeMtRequest: one problem is reported, in a fixed order', () => {
  const cases: readonly (RowCase & { readonly also: string })[] = [
    { rule: 'interaction', name: 'interaction before destination', also: 'destination missing', set: { interaction: 'both' }, remove: 'destination' },
    { rule: 'promotional', name: 'promotional before options', also: 'note1 too long', set: { promotional: 'maybe', 'options.note1': 'n'.repeat(201) } },
    { rule: 'programId', name: 'programId before note1', also: 'note1 too long', set: { 'options.programId': '', 'options.note1': 'n'.repeat(201) } },
    { rule: 'flash', name: 'options before destination', also: 'destination address invalid', set: { 'options.flash': 'no', 'destination.address': '+1' } },
    { rule: 'destinationAddress', name: 'destination before source', also: 'source ton invalid', set: { 'destination.address': '12', 'source.ton': '9' } },
    { rule: 'destinationAddress', name: 'address before mobileOperatorId', also: 'mobileOperatorId invalid', set: { 'destination.address': '12', 'destination.mobileOperatorId': 'x' } },
    { rule: 'sourceAddress', name: 'source address syntax before ton', also: 'ton invalid', set: { 'source.address': 'A_B', 'source.ton': '9' } },
    { rule: 'sourceTon', name: 'ton before message', also: 'message missing', set: { 'source.ton': '9' }, remove: 'message' },
    { rule: 'messageRequired', name: 'message before delivery', also: 'receiptRequested invalid', set: { 'delivery.receiptRequested': 'all' }, remove: 'message' },
    { rule: 'type', name: 'type before charset', also: 'charset invalid', set: { 'message.type': 'sms', 'message.charset': 'ASCII' } },
    { rule: 'charset', name: 'charset before content', also: 'content not hex', base: 'hex-gsm', set: { 'message.charset': 'UCS2', 'message.content': 'zz' } },
    { rule: 'udh', name: 'udh before content', also: 'content empty', set: { 'message.udh': 'yes', 'message.content': '' } },
    { rule: 'contentEmpty', name: 'content before validityPeriod', also: 'validityPeriod invalid', set: { 'message.content': '', 'message.validityPeriod': 'x' } },
    { rule: 'contentTooLong', name: 'octet count before hex syntax', also: 'content not hex', base: 'hex-gsm', set: { 'message.content': 'z'.repeat(5361) } },
    { rule: 'validityPeriod', name: 'validityPeriod before url', also: 'url invalid', set: { 'message.validityPeriod': 'x', 'message.url': 'x' } },
    { rule: 'wapPushUrl', name: 'url before mlc', also: 'mlc invalid', set: { 'message.url': 'x', 'message.mlc': 'x' } },
    { rule: 'mlc', name: 'mlc before delivery', also: 'receiptRequested missing', set: { 'message.mlc': 'x', 'delivery.receiptRequested': undefined } },
    { rule: 'receiptRequested', name: 'receiptRequested before delivery url', also: 'delivery url invalid', set: { 'delivery.receiptRequested': 'x', 'delivery.url': 'x' } },
  ];
  for (const format of ['json', 'xml'] as const) {
    describe(format, () => {
      for (const c of cases) {
        it(`${c.name} (${c.rule} reported, ${c.also} not)`, () => {
          const body = format === 'json' ? mutateJson(c) : mutateXml(c);
          expect(decodeMtRequest(body, format)).toEqual(rejection(c.rule));
        });
      }
    });
  }
});
