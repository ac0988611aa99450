/**
 * The documents the service answers with: message status (single or multipart, with the summary
 * by the spec's rules), error records with the catalogue's code, description and HTTP status, the
 * operator lookup, and MT requests as a client sends them.
 */
import {
  deliveryState,
  encodeErrorRecord,
  encodeMtRequest,
  encodeMtStatus,
  encodePreview,
  MT_INVALID,
  SMS_ERRORS,
  summarizeMultipart,
  type ErrorRecord,
  type MtInvalidRule,
  type MtRequest,
  type MtStatus,
  type MtStatusSegment,
  type Preview,
  type SmsErrorCode,
  type StatusDestination,
  type StatusSource,
} from '@smsv4/core';
import { DEFAULT_RECEIPT_DESTINATION, DEFAULT_RECEIPT_SOURCE } from './delivery-receipt.js';
import { encodeOptions, finishPayload, formatOf, type Payload, type WireOptions } from './payload.js';
import { randomTicketId } from './ticket-id.js';
import { utcText, type InstantInput } from './timestamps.js';

/** One part of a multipart status: its code (no code: no receipt yet), or its members. */
export type StatusPart = number | null | { readonly code: number | null; readonly description?: string; readonly deliveredAt?: InstantInput | null };

/** Options of {@link buildStatusDocument}. */
export interface StatusDocumentOptions extends WireOptions {
  /** Default: a fresh random ticket ID. */
  readonly ticketId?: string;
  /** Single-part message: its code (default 4). Ignored with `parts`. */
  readonly code?: number;
  /** Single-part message: default the catalogue's description of `code`. */
  readonly description?: string;
  /** Multipart message: each part's state, in order (`null`: no receipt yet, reported as 2). */
  readonly parts?: readonly StatusPart[];
  /** When the (last) final state was reached (default now); `null` leaves `deliveryDate` out. */
  readonly deliveredAt?: InstantInput | null;
  readonly mobileOperatorId?: number;
  readonly note1?: string;
  readonly note2?: string;
  /** Default the builders' destination; `null` leaves it out. */
  readonly destination?: StatusDestination | null;
  /** Default the builders' source; `null` leaves it out. */
  readonly source?: StatusSource | null;
}

const ACCEPTED = 2;

/**
 * The status document of a message (`GET /sms/v4/mt/<ticketId>/status`), single or multipart. For a
 * multipart message each part is a `segment` (a part with no receipt yet is reported as 2,
 * accepted) and the top-level code and description are the summary of core's
 * `summarizeMultipart` (830 when a part failed, 831 while one is awaited, else the common code).
 *
 * @example
 * const status = buildStatusDocument({ parts: [4, null, 4] }); // summary 831
 */
export function buildStatusDocument(options: StatusDocumentOptions = {}): Payload<MtStatus> {
  const format = formatOf(options);
  const { ticketId = randomTicketId(), parts, deliveredAt = Date.now(), mobileOperatorId, note1, note2, destination = DEFAULT_RECEIPT_DESTINATION, source = DEFAULT_RECEIPT_SOURCE } = options;
  const date = deliveredAt === null ? undefined : utcText(deliveredAt, 'deliveredAt');
  let top: { code: number; description?: string; deliveryDate?: string; totalSegments?: number; segments?: MtStatusSegment[] };
  if (parts !== undefined) {
    if (!Array.isArray(parts) || parts.length < 2) throw new TypeError('a multipart status has at least two parts');
    const states = parts.map((part) => (typeof part === 'object' && part !== null ? part : { code: part }));
    const segments = states.map((state, i): MtStatusSegment => {
      const code = state.code ?? ACCEPTED;
      const description = 'description' in state && state.description !== undefined ? state.description : deliveryState(code)?.description;
      const final = state.code !== null && deliveryState(code)?.final !== false;
      const partDate = 'deliveredAt' in state && state.deliveredAt !== undefined ? (state.deliveredAt === null ? undefined : utcText(state.deliveredAt, 'deliveredAt')) : final ? date : undefined;
      return { segmentNumber: i + 1, ...(partDate === undefined ? {} : { deliveryDate: partDate }), code, ...(description === undefined ? {} : { description }) };
    });
    const summary = summarizeMultipart(states.map((s, i) => (s.code === null ? {} : { code: s.code, ...(segments[i]?.description === undefined ? {} : { description: segments[i]?.description }) })));
    const complete = segments.every((s) => s.deliveryDate !== undefined);
    top = { ...summary, ...(complete && date !== undefined ? { deliveryDate: date } : {}), totalSegments: segments.length, segments };
  } else {
    const code = options.code ?? 4;
    const description = options.description ?? deliveryState(code)?.description;
    top = { code, ...(description === undefined ? {} : { description }), ...(date === undefined ? {} : { deliveryDate: date }) };
  }
  const value: MtStatus = {
    ticketId,
    ...(top.deliveryDate === undefined ? {} : { deliveryDate: top.deliveryDate }),
    code: top.code,
    ...(top.description === undefined ? {} : { description: top.description }),
    ...(mobileOperatorId === undefined ? {} : { mobileOperatorId }),
    ...(note1 === undefined ? {} : { note1 }),
    ...(note2 === undefined ? {} : { note2 }),
    ...(top.totalSegments === undefined ? {} : { totalSegments: top.totalSegments }),
    ...(destination === null ? {} : { destination: { ...destination } }),
    ...(source === null ? {} : { source: { ...source } }),
    ...(top.segments === undefined ? {} : { segments: top.segments }),
  };
  return finishPayload('mtStatus', value, encodeMtStatus(value, format, encodeOptions('mtStatus', options)), { ...options, format });
}

/** Options of {@link buildErrorRecord}. */
export interface ErrorRecordOptions extends WireOptions {
  /** A code of the SMS error catalogue (`'420'`, `'711'`...) or any digits (default `'540'`). */
  readonly code?: SmsErrorCode | (string & {});
  /** 540 only: the rule broken (a key of core's `MT_INVALID`), whose description the record carries. */
  readonly rule?: MtInvalidRule;
  /** Default: the rule's or the catalogue's description. */
  readonly description?: string;
}

/** An error record and the HTTP status the service answers it with. */
export interface ErrorPayload extends Payload<ErrorRecord> {
  /** The catalogue's HTTP status for the code (500 for a code it does not know). */
  readonly httpStatus: number;
}

/**
 * An error record as the service answers a rejected request, with the HTTP status of core's
 * catalogue: for faking the service in a client's tests.
 *
 * @example
 * const rejected = buildErrorRecord({ rule: 'destinationAddress' });
 * new Response(rejected.body, { status: rejected.httpStatus, headers: { 'content-type': rejected.contentType } });
 */
export function buildErrorRecord(options: ErrorRecordOptions = {}): ErrorPayload {
  const format = formatOf(options);
  const { code = '540', rule } = options;
  if (rule !== undefined && (code !== '540' || !Object.hasOwn(MT_INVALID, rule))) throw new TypeError(`rule must be a key of MT_INVALID, with code 540; got ${String(rule)} with ${code}`);
  const entry = Object.hasOwn(SMS_ERRORS, code) ? SMS_ERRORS[code as SmsErrorCode] : undefined;
  const description = options.description ?? (rule === undefined ? entry?.description : MT_INVALID[rule]);
  if (description === undefined) throw new TypeError(`code ${code} is not in the catalogue: give its description`);
  const value: ErrorRecord = { code, description };
  const body = encodeErrorRecord(value, format, encodeOptions('error', options));
  return { ...finishPayload('error', value, body, { ...options, format }), httpStatus: entry?.httpStatus ?? 500 };
}

/** Options of {@link buildPreview}: the lookup result's members (defaults: a US mobile on operator 383). */
export interface PreviewOptions extends WireOptions {
  readonly phoneNumber?: string;
  readonly destination?: Omit<Preview['destination'], 'phoneNumber'>;
  readonly mobileOperator?: Preview['mobileOperator'];
}

/** An operator lookup result (`GET /sms/v4/preview/<number>`). */
export function buildPreview(options: PreviewOptions = {}): Payload<Preview> {
  const format = formatOf(options);
  const { phoneNumber = '14155550100', destination = { countryCode: 1, alpha2Code: 'US', wireless: true }, mobileOperator = { mobileOperatorId: 383, mobileOperatorName: 'AT&T Wireless', textLength: 160, binaryLength: 140, unicodeLength: 70, wapPush: true } } =
    options;
  const value: Preview = { destination: { ...destination, phoneNumber }, mobileOperator: { ...mobileOperator } };
  return finishPayload('preview', value, encodePreview(value, format, encodeOptions('preview', options)), { ...options, format });
}

/**
 * An MT request body as a client sends it (core's encoder: valid requests only; a `TypeError`
 * names the member otherwise). To test invalid ones, write the body or object yourself and use
 * `toFailWith540`.
 */
export function buildMtRequest(request: MtRequest, options: Omit<WireOptions, 'timestamps'> = {}): Payload<MtRequest> {
  const format = formatOf(options);
  return finishPayload('mobileTerminate', request, encodeMtRequest(request, format, encodeOptions('mobileTerminate', options)), { ...options, format });
}
