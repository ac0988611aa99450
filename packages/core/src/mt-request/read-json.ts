/**
 * The JSON fast path of `decodeMtRequest`: one `JSON.parse` and one walk of the parsed value that
 * does, at once, what the general path does in three (the repeated-member count of
 * `parseStrictJson`, the member checks and the normalisation of `checkMtRequest`):
 *
 * - the separators the parsed value accounts for are counted (one comma between two members of an
 *   object or two items of an array, met with `for...in` and `length`), and every comma inside a
 *   key or a string value. In a text without a backslash every string holds exactly the characters
 *   it is written with, so the commas of the text are these separators plus these commas; a member
 *   repeated in the text was dropped by `JSON.parse` with its separator, so the counts are equal if
 *   and only if no member was repeated (the reasoning of `member-tally.ts`, with commas, which are
 *   fewer than colons and so cheaper to count natively);
 * - the members the spec defines are taken as `for...in` meets them, so a value is only ever read
 *   from an own member (`for...in` yields inherited members only when `Object.prototype` holds
 *   enumerable ones, and then this path is not taken at all);
 * - each rule of the 540 table is checked and the normalised request built.
 *
 * It answers `undefined` whenever anything is out of the ordinary (a backslash in the text, a syntax
 * error, a repeated member, nesting deeper than the limit, any rule broken, a polluted prototype):
 * the general path then decides and names the error. A property test holds it to the general path.
 */
import { isDigits, wireBoolean, wireDigits } from '../codec/wire-values.js';
import { MAX_DEPTH } from '../json/member-tally.js';
import {
  CHARSETS,
  INTERACTIONS,
  MESSAGE_TYPES,
  MLC_VALUES,
  MT_LIMITS,
  RECEIPT_REQUESTED_VALUES,
  type MtCharset,
  type MtMessageType,
  type MtSourceTon,
} from './members.js';
import type { MtDelivery, MtDestination, MtMessage, MtRequest, MtRequestOptions, MtSource } from './schema.js';
import { contentProblem, isAlphanumeric, isWireTon, isWireUrl } from './validate.js';

type Members = Record<string, unknown>;

const isOneOf = <T>(values: readonly T[], value: unknown): value is T => values.includes(value as T);

const isPlainObject = (value: unknown): value is Members => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object with no member of its own: `for...in` over it meets only enumerable members of `Object.prototype`. */
const EMPTY: Members = Object.freeze({});

/** What the walk counts: separators the parsed value accounts for, commas inside strings, depth. */
interface CommaTally {
  separators: number;
  commas: number;
  deepest: number;
}

/** The number of `,` in a string (one native search per comma). */
function countCommas(text: string): number {
  let count = 0;
  let at = text.indexOf(',');
  while (at !== -1) {
    count++;
    at = text.indexOf(',', at + 1);
  }
  return count;
}

/** Counts the commas of a string into the tally. */
function stringCommas(value: string, tally: CommaTally): void {
  if (value.indexOf(',') !== -1) tally.commas += countCommas(value);
}

/** Adds the separators of an object of `members` members (or an array of that many items). */
function separators(members: number, tally: CommaTally): void {
  if (members > 1) tally.separators += members - 1;
}

/**
 * Tallies a value the fast path does not read (the value of an unknown member) found at nesting
 * `depth`: its separators, the commas of its strings and keys, its depth (not descending past the
 * limit, which the caller compares `deepest` with).
 */
function tallyValue(value: unknown, depth: number, tally: CommaTally): void {
  if (typeof value === 'string') {
    stringCommas(value, tally);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth > tally.deepest) tally.deepest = depth;
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    separators(value.length, tally);
    for (let i = 0; i < value.length; i++) tallyValue(value[i], depth + 1, tally);
    return;
  }
  let members = 0;
  for (const key in value) {
    members++;
    tallyOther(key, (value as Members)[key], depth + 1, tally);
  }
  separators(members, tally);
}

/** Tallies a member the fast path does not read (an unknown one): its key's commas and its value. */
function tallyOther(key: string, value: unknown, depth: number, tally: CommaTally): void {
  stringCommas(key, tally);
  tallyValue(value, depth, tally);
}

/** `options`, normalised, or `undefined`. */
function readOptions(node: unknown, tally: CommaTally): MtRequestOptions | undefined {
  if (!isPlainObject(node)) return undefined;
  const options: MtRequestOptions = {};
  let members = 0;
  for (const key in node) {
    members++;
    const value = node[key];
    switch (key) {
      case 'programId':
        if (typeof value !== 'string' || value.length < MT_LIMITS.programIdMinLength || value.length > MT_LIMITS.programIdMaxLength) return undefined;
        stringCommas(value, tally);
        options.programId = value;
        break;
      // Each member stored by its name: a store by a computed name is slow for engines.
      case 'note1':
        if (typeof value !== 'string' || value.length > MT_LIMITS.noteMaxLength) return undefined;
        stringCommas(value, tally);
        options.note1 = value;
        break;
      case 'note2':
        if (typeof value !== 'string' || value.length > MT_LIMITS.noteMaxLength) return undefined;
        stringCommas(value, tally);
        options.note2 = value;
        break;
      case 'flash': {
        const flash = wireBoolean(value);
        if (flash === undefined) return undefined;
        options.flash = flash;
        break;
      }
      default:
        tallyOther(key, value, 4, tally);
    }
  }
  separators(members, tally);
  return options;
}

/** `destination`, normalised, or `undefined`. */
function readDestination(node: unknown, tally: CommaTally): MtDestination | undefined {
  if (!isPlainObject(node)) return undefined;
  let address: unknown;
  let mobileOperatorId: number | undefined;
  let members = 0;
  for (const key in node) {
    members++;
    const value = node[key];
    if (key === 'address') address = value;
    else if (key === 'mobileOperatorId') {
      mobileOperatorId = wireDigits(value, MT_LIMITS.maxDigits);
      if (mobileOperatorId === undefined) return undefined;
    } else tallyOther(key, value, 4, tally);
  }
  separators(members, tally);
  if (
    typeof address !== 'string' ||
    address.length < MT_LIMITS.destinationAddressMinDigits ||
    address.length > MT_LIMITS.destinationAddressMaxDigits ||
    !isDigits(address)
  ) {
    return undefined;
  }
  return mobileOperatorId === undefined ? { address } : { address, mobileOperatorId };
}

/** `source`, normalised, or `undefined`. */
function readSource(node: unknown, tally: CommaTally): MtSource | undefined {
  if (!isPlainObject(node)) return undefined;
  let address: unknown;
  let ton: unknown;
  let members = 0;
  for (const key in node) {
    members++;
    const value = node[key];
    if (key === 'address') address = value;
    else if (key === 'ton') ton = value;
    else tallyOther(key, value, 4, tally);
  }
  separators(members, tally);
  if (
    typeof address !== 'string' ||
    address.length < MT_LIMITS.sourceAddressMinLength ||
    address.length > MT_LIMITS.sourceAddressMaxLength ||
    !isAlphanumeric(address)
  ) {
    return undefined;
  }
  // An alphanumeric address holds no comma.
  if (ton === undefined) return { address };
  if (!isWireTon(ton)) return undefined;
  const value = Number(ton) as MtSourceTon;
  if (value !== 5 && !isDigits(address)) return undefined;
  return { address, ton: value };
}

/** `message`, normalised, or `undefined`. */
function readMessage(node: unknown, tally: CommaTally): MtMessage | undefined {
  if (!isPlainObject(node)) return undefined;
  let type: unknown;
  let content: unknown;
  let charset: unknown;
  let udh: boolean | undefined;
  let validityPeriod: number | undefined;
  let url: unknown;
  let mlc: unknown;
  let members = 0;
  for (const key in node) {
    members++;
    const value = node[key];
    switch (key) {
      case 'type':
        type = value;
        break;
      case 'content':
        content = value;
        break;
      case 'charset':
        charset = value;
        break;
      case 'udh':
        udh = wireBoolean(value);
        if (udh === undefined) return undefined;
        break;
      case 'validityPeriod':
        validityPeriod = wireDigits(value, MT_LIMITS.maxDigits);
        if (validityPeriod === undefined || validityPeriod > MT_LIMITS.validityPeriodMaxSeconds) return undefined;
        break;
      case 'url':
        url = value;
        break;
      case 'mlc':
        mlc = value;
        break;
      default:
        tallyOther(key, value, 4, tally);
    }
  }
  separators(members, tally);
  if (!isOneOf(MESSAGE_TYPES, type)) return undefined;
  if (charset === undefined ? type === 'hexEncodedText' : !isOneOf(CHARSETS, charset)) return undefined;
  if (contentProblem(type as MtMessageType, charset as MtCharset | undefined, udh === true, content) !== undefined) return undefined;
  if (url === undefined ? type === 'wapPush' : !isWireUrl(url)) return undefined;
  if (mlc !== undefined && !isOneOf(MLC_VALUES, mlc)) return undefined;
  stringCommas(content as string, tally);
  const message: MtMessage = { type, content: content as string };
  if (charset !== undefined) message.charset = charset as MtCharset;
  if (validityPeriod !== undefined) message.validityPeriod = validityPeriod;
  if (url !== undefined) {
    stringCommas(url as string, tally);
    message.url = url as string;
  }
  if (mlc !== undefined) message.mlc = mlc;
  if (udh !== undefined) message.udh = udh;
  return message;
}

/** `delivery`, normalised, or `undefined`. */
function readDelivery(node: unknown, tally: CommaTally): MtDelivery | undefined {
  if (!isPlainObject(node)) return undefined;
  let receiptRequested: unknown;
  let url: unknown;
  let members = 0;
  for (const key in node) {
    members++;
    const value = node[key];
    if (key === 'receiptRequested') receiptRequested = value;
    else if (key === 'url') url = value;
    else tallyOther(key, value, 4, tally);
  }
  separators(members, tally);
  if (!isOneOf(RECEIPT_REQUESTED_VALUES, receiptRequested)) return undefined;
  if (url === undefined) return { receiptRequested };
  if (!isWireUrl(url)) return undefined;
  stringCommas(url as string, tally);
  return { receiptRequested, url: url as string };
}

/** The inside of `mobileTerminate`, normalised, or `undefined`. */
function readMobileTerminate(node: unknown, tally: CommaTally): MtRequest | undefined {
  if (!isPlainObject(node)) return undefined;
  // Members held in locals, then set in the order of the general path's normalised value.
  let interaction: MtRequest['interaction'];
  let promotional: boolean | undefined;
  let options: MtRequestOptions | undefined;
  let destination: MtDestination | undefined;
  let source: MtSource | undefined;
  let message: MtMessage | undefined;
  let delivery: MtDelivery | undefined;
  let members = 0;
  for (const key in node) {
    members++;
    const value = node[key];
    switch (key) {
      case 'interaction':
        if (!isOneOf(INTERACTIONS, value)) return undefined;
        interaction = value;
        break;
      case 'promotional':
        promotional = wireBoolean(value);
        if (promotional === undefined) return undefined;
        break;
      case 'options':
        options = readOptions(value, tally);
        if (options === undefined) return undefined;
        break;
      case 'destination':
        destination = readDestination(value, tally);
        if (destination === undefined) return undefined;
        break;
      case 'source':
        source = readSource(value, tally);
        if (source === undefined) return undefined;
        break;
      case 'message':
        message = readMessage(value, tally);
        if (message === undefined) return undefined;
        break;
      case 'delivery':
        delivery = readDelivery(value, tally);
        if (delivery === undefined) return undefined;
        break;
      default:
        tallyOther(key, value, 3, tally);
    }
  }
  separators(members, tally);
  if (destination === undefined || message === undefined) return undefined;
  const request = {} as MtRequest;
  if (interaction !== undefined) request.interaction = interaction;
  if (promotional !== undefined) request.promotional = promotional;
  if (options !== undefined) request.options = options;
  request.destination = destination;
  if (source !== undefined) request.source = source;
  request.message = message;
  if (delivery !== undefined) request.delivery = delivery;
  return request;
}

/**
 * A valid MT request read from a JSON text (`{"mobileTerminate": {...}}`) in one walk, normalised;
 * `undefined` when the text is anything else or anything out of the ordinary (the general path then
 * decides). What it returns equals what the general path returns for the same text.
 */
export function readMtRequestJson(text: string): MtRequest | undefined {
  if (text.indexOf('\\') !== -1) return undefined;
  // Enumerable members of Object.prototype would be met by `for...in` as if they were own members.
  for (const _ in EMPTY) return undefined;
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(root)) return undefined;
  // The known members nest three deep (root, mobileTerminate, its objects).
  const tally: CommaTally = { separators: 0, commas: 0, deepest: 3 };
  let request: MtRequest | undefined;
  let members = 0;
  for (const key in root) {
    members++;
    if (key === 'mobileTerminate') request = readMobileTerminate(root[key], tally);
    else tallyOther(key, root[key], 2, tally);
  }
  separators(members, tally);
  if (request === undefined || tally.deepest > MAX_DEPTH) return undefined;
  return tally.separators + tally.commas === countCommas(text) ? request : undefined;
}
