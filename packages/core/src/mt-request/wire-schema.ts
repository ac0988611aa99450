/**
 * The MT request as it may appear on the wire, before normalisation: Booleans as JSON Booleans or
 * the strings `"true"` / `"false"`, integers as JSON numbers or strings of digits (XML attributes
 * are always strings). Compiled once; it is the decoders' fast path, and every member rule it can
 * express is here. Rules joining several members are checked after it.
 */
import * as Type from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { compileSchema } from '../codec/compile-schema.js';
import { CHARSETS, INTERACTIONS, MESSAGE_TYPES, MLC_VALUES, MT_LIMITS, RECEIPT_REQUESTED_VALUES, SOURCE_TONS } from './members.js';
import { literals } from './schema.js';

const WireBoolean = Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')]);

const wireInteger = (maximum: number) =>
  Type.Union([Type.Integer({ minimum: 0, maximum }), Type.String({ pattern: `^[0-9]{1,${MT_LIMITS.maxDigits}}$` })]);

const WireTon = Type.Union([literals(SOURCE_TONS), literals(SOURCE_TONS.map(String))]);

/** No space, no control character, no DEL: a URL parser would silently drop or escape them. */
const WireUrl = Type.String({
  minLength: MT_LIMITS.urlMinLength,
  maxLength: MT_LIMITS.urlMaxLength,
  pattern: '^https?://[^\\x00-\\x20\\x7f]+$',
});

/**
 * TypeBox schema of the inside of `mobileTerminate` as a JSON body carries it (and as the XML
 * decoder maps attributes to members). Unknown members are allowed. It does not check the rules
 * joining members: charset required for `hexEncodedText`, content decodable and within 2680
 * octets, url required for `wapPush`, URLs parseable, source address against its ton, and
 * validityPeriod written as a string within 259200.
 */
export const MtRequestWireSchema = Type.Object({
  interaction: Type.Optional(literals(INTERACTIONS)),
  promotional: Type.Optional(WireBoolean),
  options: Type.Optional(
    Type.Object({
      programId: Type.Optional(Type.String({ minLength: MT_LIMITS.programIdMinLength, maxLength: MT_LIMITS.programIdMaxLength })),
      note1: Type.Optional(Type.String({ maxLength: MT_LIMITS.noteMaxLength })),
      note2: Type.Optional(Type.String({ maxLength: MT_LIMITS.noteMaxLength })),
      flash: Type.Optional(WireBoolean),
    }),
  ),
  destination: Type.Object({
    address: Type.String({ pattern: `^[0-9]{${MT_LIMITS.destinationAddressMinDigits},${MT_LIMITS.destinationAddressMaxDigits}}$` }),
    mobileOperatorId: Type.Optional(wireInteger(Number.MAX_SAFE_INTEGER)),
  }),
  source: Type.Optional(
    Type.Object({
      address: Type.String({ pattern: `^[A-Za-z0-9]{${MT_LIMITS.sourceAddressMinLength},${MT_LIMITS.sourceAddressMaxLength}}$` }),
      ton: Type.Optional(WireTon),
    }),
  ),
  message: Type.Object({
    type: literals(MESSAGE_TYPES),
    content: Type.String({ minLength: 1 }),
    charset: Type.Optional(literals(CHARSETS)),
    validityPeriod: Type.Optional(wireInteger(MT_LIMITS.validityPeriodMaxSeconds)),
    url: Type.Optional(WireUrl),
    mlc: Type.Optional(literals(MLC_VALUES)),
    udh: Type.Optional(WireBoolean),
  }),
  delivery: Type.Optional(
    Type.Object({
      receiptRequested: literals(RECEIPT_REQUESTED_VALUES),
      url: Type.Optional(WireUrl),
    }),
  ),
});

/** The wire form of an MT request, as {@link MtRequestWireSchema} admits it. */
export type MtRequestWire = Static<typeof MtRequestWireSchema>;

/** The compiled check of {@link MtRequestWireSchema} (compiled once, at module load). */
export const mtRequestWireCheck = compileSchema(MtRequestWireSchema);
