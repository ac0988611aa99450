/**
 * The one table of the MT request's (`mobileTerminate`) member values and limits, from the spec's
 * resource table and its Limits section. The schemas, the validator, the encoders and the docs
 * read every enumeration and bound from here.
 */
import { HEX_CHARSETS, type HexCharset } from '../text/hex.js';

/** `interaction` values (case-sensitive): one-way or two-way messaging. */
export const INTERACTIONS = ['one-way', 'two-way'] as const;
/** A value of `interaction`. */
export type MtInteraction = (typeof INTERACTIONS)[number];

/** `message.type` values (case-sensitive). */
export const MESSAGE_TYPES = ['text', 'hexEncodedText', 'binary', 'wapPush'] as const;
/** A value of `message.type`. */
export type MtMessageType = (typeof MESSAGE_TYPES)[number];

/** `message.charset` values (case-sensitive), required when `message.type` is `hexEncodedText`. */
export const CHARSETS: readonly HexCharset[] = HEX_CHARSETS;
/** A value of `message.charset`. */
export type MtCharset = HexCharset;

/** `message.mlc` values (case-sensitive): what to do with content longer than one SMS. */
export const MLC_VALUES = ['reject', 'truncate', 'segment'] as const;
/** A value of `message.mlc`. */
export type MtMlc = (typeof MLC_VALUES)[number];

/** `source.ton` values: 1 toll-free / long code / VMN / landline, 3 short code, 5 alphanumeric. */
export const SOURCE_TONS = [1, 3, 5] as const;
/** A value of `source.ton`. */
export type MtSourceTon = (typeof SOURCE_TONS)[number];

/** `delivery.receiptRequested` values: only `final` (case-sensitive). */
export const RECEIPT_REQUESTED_VALUES = ['final'] as const;
/** A value of `delivery.receiptRequested`. */
export type MtReceiptRequested = (typeof RECEIPT_REQUESTED_VALUES)[number];

/** Octets of one part of a concatenated message (140 minus the 6-octet concatenation header). */
const OCTETS_PER_PART = 134;
/** Parts of the longest concatenated message. */
const MAX_PARTS = 20;

/**
 * Bounds of the MT request's members. Lengths of strings are counted in UTF-16 code units (a
 * character outside the Basic Multilingual Plane counts as two), except `message.content`, which is
 * counted in octets: UTF-8 octets of the text for `text` and `wapPush`, decoded octets (half the hex
 * digits) for `hexEncodedText` and `binary`.
 */
export const MT_LIMITS = {
  /** `message.content`: at least 1 octet. */
  contentMinBytes: 1,
  /** `message.content`: at most 2680 octets, i.e. 20 parts of 134 octets. */
  contentMaxBytes: OCTETS_PER_PART * MAX_PARTS,
  /** `destination.address`: 5 to 20 digits. */
  destinationAddressMinDigits: 5,
  /** `destination.address`: 5 to 20 digits. */
  destinationAddressMaxDigits: 20,
  /** `source.address`: 1 to 20 characters. */
  sourceAddressMinLength: 1,
  /** `source.address`: 1 to 20 characters. */
  sourceAddressMaxLength: 20,
  /** `message.validityPeriod`: 0 to 259200 seconds (three days). */
  validityPeriodMaxSeconds: 259_200,
  /** `options.note1` and `options.note2`: 0 to 200 characters. */
  noteMaxLength: 200,
  /** `options.programId`: 1 to 50 characters. */
  programIdMinLength: 1,
  /** `options.programId`: 1 to 50 characters. */
  programIdMaxLength: 50,
  /** `message.url` and `delivery.url`: 12 to 2048 characters. */
  urlMinLength: 12,
  /** `message.url` and `delivery.url`: 12 to 2048 characters. */
  urlMaxLength: 2048,
  /** Digits accepted in a number written as a string (`mobileOperatorId`, `ton`, `validityPeriod`). */
  maxDigits: 15,
} as const;
