/**
 * Errors of decoders for which the spec names no code (status, receipts, inbound messages, lookup
 * results, error records). The MT request uses the spec's 540 and the Invoke Service request its
 * 12002 / 12007 instead.
 */

/** Closed set of payload error codes. */
export type PayloadErrorCode =
  | 'too-large'
  | 'invalid-encoding'
  | 'invalid-json'
  | 'invalid-xml'
  | 'wrong-resource'
  | 'missing-member'
  | 'invalid-member';

/** A payload the toolkit could not take, with the member at fault where there is one. */
export interface PayloadError {
  readonly code: PayloadErrorCode;
  readonly description: string;
  /** Dotted path of the member at fault, e.g. `mtStatus.ticketId`. */
  readonly path?: string;
}

/** Builds a {@link PayloadError}. */
export function payloadError(code: PayloadErrorCode, description: string, path?: string): PayloadError {
  return path === undefined ? { code, description } : { code, description, path };
}
