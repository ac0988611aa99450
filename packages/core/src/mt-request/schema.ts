/**
 * The decoded, normalised MT request (`mobileTerminate`): Booleans are Booleans, numbers are
 * numbers, absent members are absent. {@link MtRequestSchema} describes it member by member; the
 * rules that join members (charset required for `hexEncodedText`, content decodable in its charset,
 * url required for `wapPush`, source address against its ton, content size in octets) are applied
 * by `validateMtRequest` and `decodeMtRequest`, not by the schema.
 */
import * as Type from '@sinclair/typebox';
import type { TLiteral, TLiteralValue, TUnion } from '@sinclair/typebox';
import {
  CHARSETS,
  INTERACTIONS,
  MESSAGE_TYPES,
  MLC_VALUES,
  MT_LIMITS,
  RECEIPT_REQUESTED_VALUES,
  SOURCE_TONS,
  type MtCharset,
  type MtInteraction,
  type MtMessageType,
  type MtMlc,
  type MtReceiptRequested,
  type MtSourceTon,
} from './members.js';

/** `options` of an MT request. */
export interface MtRequestOptions {
  /** 1 to 50 characters, not case-sensitive. Required for US short-code messaging; ignored otherwise. */
  programId?: string;
  /** 0 to 200 characters of free text; appears in reports, receipts and status. */
  note1?: string;
  /** 0 to 200 characters of free text; returned in delivery receipts. */
  note2?: string;
  /** `true` sends a flash message (default `false`). Ignored for binary messages. */
  flash?: boolean;
}

/** `destination` of an MT request. */
export interface MtDestination {
  /** Phone number with country code: 5 to 20 ASCII digits, no `+`. */
  address: string;
  /** Mobile operator ID (a non-negative integer) for US/Canada short code, toll-free or landline sending. */
  mobileOperatorId?: number;
}

/** `source` of an MT request; when present, `address` is required. */
export interface MtSource {
  /**
   * 1 to 20 characters from A-Z, a-z, 0-9: a short code, an alphanumeric string, a virtual mobile
   * number, or a US toll-free or landline number (numbers with country code, no `+`). With `ton`
   * 1 or 3 it must be digits only.
   */
  address: string;
  /** 1 toll-free / long code / VMN / landline, 3 short code, 5 alphanumeric. */
  ton?: MtSourceTon;
}

/** `message` of an MT request. */
export interface MtMessage {
  /** `text` (UTF-8), `hexEncodedText`, `binary` or `wapPush`. */
  type: MtMessageType;
  /**
   * 1 to 2680 octets. `text` and `wapPush`: UTF-8 plain text (the link text for `wapPush`), counted
   * in UTF-8 octets. `hexEncodedText`: hex of the text in `charset`; `binary`: hex of raw octets;
   * both counted in decoded octets (half the hex digits).
   */
  content: string;
  /** `GSM`, `Latin-1`, `UTF-8` or `UTF-16`. Required when `type` is `hexEncodedText`; ignored otherwise. */
  charset?: MtCharset;
  /** Seconds, 0 to 259200. Standard retry strategies apply when absent. */
  validityPeriod?: number;
  /** 12 to 2048 characters starting with `http://` or `https://`. Required when `type` is `wapPush`. */
  url?: string;
  /** Content longer than one SMS: `reject` (default), `truncate` or `segment`. */
  mlc?: MtMlc;
  /** Whether the content starts with a user data header (default `false`); for `hexEncodedText` and `binary`. */
  udh?: boolean;
}

/** `delivery` of an MT request; when present, `receiptRequested` is required. */
export interface MtDelivery {
  /** Only `final`. */
  receiptRequested: MtReceiptRequested;
  /** 12 to 2048 characters starting with `http://` or `https://`; defaults to the URL set at provisioning. */
  url?: string;
}

/** A decoded MT request: the inside of `mobileTerminate`, normalised. */
export interface MtRequest {
  /** `one-way` or `two-way`; chosen by automated originator selection when absent. Ignored for US and Canada. */
  interaction?: MtInteraction;
  /** `true` promotional, `false` transactional (default). Needed for India only. */
  promotional?: boolean;
  /** Program ID, notes and flash. */
  options?: MtRequestOptions;
  /** The phone number the message goes to (required). */
  destination: MtDestination;
  /** The originator; selected automatically when absent. */
  source?: MtSource;
  /** The message (required). */
  message: MtMessage;
  /** Delivery receipt request; no receipt is sent when absent. */
  delivery?: MtDelivery;
}

/** A union of literal values, from one of the member tables. */
export function literals<T extends TLiteralValue>(values: readonly T[], description?: string): TUnion<TLiteral<T>[]> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    description === undefined ? {} : { description },
  );
}

const URL_PATTERN = '^https?://';

const url = (description: string) =>
  Type.String({ minLength: MT_LIMITS.urlMinLength, maxLength: MT_LIMITS.urlMaxLength, pattern: URL_PATTERN, description });

/** TypeBox schema of {@link MtRequest}, member by member (cross-member rules are not expressible here). */
export const MtRequestSchema = Type.Object(
  {
    interaction: Type.Optional(literals(INTERACTIONS, '`one-way` or `two-way`, case-sensitive.')),
    promotional: Type.Optional(Type.Boolean({ description: '`true` promotional, `false` transactional.' })),
    options: Type.Optional(
      Type.Object({
        programId: Type.Optional(
          Type.String({ minLength: MT_LIMITS.programIdMinLength, maxLength: MT_LIMITS.programIdMaxLength, description: '1 to 50 characters.' }),
        ),
        note1: Type.Optional(Type.String({ maxLength: MT_LIMITS.noteMaxLength, description: '0 to 200 characters.' })),
        note2: Type.Optional(Type.String({ maxLength: MT_LIMITS.noteMaxLength, description: '0 to 200 characters.' })),
        flash: Type.Optional(Type.Boolean({ description: 'Sends a flash message.' })),
      }),
    ),
    destination: Type.Object({
      address: Type.String({
        pattern: `^[0-9]{${MT_LIMITS.destinationAddressMinDigits},${MT_LIMITS.destinationAddressMaxDigits}}$`,
        description: 'Phone number with country code, 5 to 20 digits, no `+`.',
      }),
      mobileOperatorId: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Mobile operator ID.' })),
    }),
    source: Type.Optional(
      Type.Object({
        address: Type.String({
          pattern: `^[A-Za-z0-9]{${MT_LIMITS.sourceAddressMinLength},${MT_LIMITS.sourceAddressMaxLength}}$`,
          description: '1 to 20 characters from A-Z, a-z, 0-9; digits only with ton 1 or 3.',
        }),
        ton: Type.Optional(literals(SOURCE_TONS, '1, 3 or 5.')),
      }),
    ),
    message: Type.Object({
      type: literals(MESSAGE_TYPES, '`text`, `hexEncodedText`, `binary` or `wapPush`.'),
      content: Type.String({ minLength: 1, description: '1 to 2680 octets; hex for hexEncodedText and binary.' }),
      charset: Type.Optional(literals(CHARSETS, 'Required for hexEncodedText.')),
      validityPeriod: Type.Optional(Type.Integer({ minimum: 0, maximum: MT_LIMITS.validityPeriodMaxSeconds, description: 'Seconds.' })),
      url: Type.Optional(url('Required for wapPush.')),
      mlc: Type.Optional(literals(MLC_VALUES, '`reject`, `truncate` or `segment`.')),
      udh: Type.Optional(Type.Boolean({ description: 'The content starts with a user data header.' })),
    }),
    delivery: Type.Optional(
      Type.Object({
        receiptRequested: literals(RECEIPT_REQUESTED_VALUES, 'Only `final`.'),
        url: Type.Optional(url('Receipt URL.')),
      }),
    ),
  },
  { description: 'The inside of `mobileTerminate`, decoded and normalised.' },
);
