/**
 * TypeBox building blocks shared by the response and callback resources: timestamps, ticket IDs,
 * counts and codes, each with the wording a decoder uses when a value does not fit.
 */
import * as Type from '@sinclair/typebox';
import { XS_DATE_TIME_PATTERN } from '../time/xs-date-time.js';

/**
 * The form encoders write by default and the spec's prose shows: ISO 8601 in UTC, with
 * milliseconds (`2024-05-01T12:00:00.000Z`; also matched without them).
 *
 * @deprecated Decoders take any `xs:dateTime` with a time zone: use `XS_DATE_TIME_PATTERN` for
 * the shape and `parseTimestamp` to read one.
 */
export const UTC_TIMESTAMP_PATTERN =
  '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{3})?Z$';

/** A ticket ID: hyphen-separated groups of ASCII letters and digits (`44101-0922I-13413-21GDL`). */
export const TICKET_ID_PATTERN = '^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$';

/** The longest ticket ID a decoder takes (IDs are opaque; the bound keeps hostile input short). */
export const TICKET_ID_MAX_LENGTH = 64;

/**
 * A timestamp member (`deliveryDate`, `submittedDate`): an `xs:dateTime` with a time zone, kept
 * as received. The pattern checks the shape; `wireTimestamp` makes the codecs run the timestamp
 * reader (`parseTimestamp`) on it as well, which checks the day against its month and names the
 * reason of a refusal.
 */
export const WireTimestamp = Type.String({
  pattern: XS_DATE_TIME_PATTERN,
  wireTimestamp: true,
  wireExpected: 'an xs:dateTime with a time zone, such as 2024-05-01T12:00:00.000Z or 2024-05-01T07:00:00-05:00',
});

/** A ticket ID member. */
export const WireTicketId = Type.String({
  pattern: TICKET_ID_PATTERN,
  maxLength: TICKET_ID_MAX_LENGTH,
  wireExpected: 'a ticket ID (hyphen-separated groups of letters and digits)',
});

/** A non-negative integer member: codes, operator IDs, type of number, lengths. */
export const WireInteger = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** A positive integer member: segment numbers and counts. */
export const WirePositiveInteger = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
