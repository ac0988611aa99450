/** `toBeDeliveryReceipt({...})`: a body or value that decodes as a delivery receipt with these members. */
import { decodeDeliveryReceipt, deliveryState, type DeliveryReceipt, type PayloadError, type ReceiptStatus, type StatusDestination, type StatusSource } from '@smsv4/core';
import { hint, show, type SmsMatcherContext, type SmsMatcherResult } from './matcher-context.js';
import { isObject, receivedBody } from './received.js';

/**
 * The members a receipt is expected to have: those of its `mtStatus` at the top (`ticketId`, `code`,
 * `segmentNumber`...), and `destination` / `source` as objects. Only the members given are
 * compared, with the runner's equality (asymmetric matchers such as `expect.any(String)` work).
 */
export type ExpectedReceipt = { readonly [K in keyof ReceiptStatus]?: unknown } & {
  readonly destination?: { readonly [K in keyof StatusDestination]?: unknown };
  readonly source?: { readonly [K in keyof StatusSource]?: unknown };
};

function decodeReceived(received: unknown): { ok: true; value: DeliveryReceipt } | { ok: false; error: PayloadError } | { ok: false; reason: string } {
  const body = receivedBody(received);
  if (body !== undefined) return decodeDeliveryReceipt(body.text, body.format);
  if (isObject(received) && isObject(received.mtStatus)) return decodeDeliveryReceipt(JSON.stringify({ deliveryReceipt: received }), 'json');
  return { ok: false, reason: `${show(received)} is not a delivery receipt (a JSON or XML body, a built payload, a request with a body, or a decoded receipt)` };
}

const withMeaning = (key: string, value: unknown): string => {
  const state = key === 'code' && typeof value === 'number' ? deliveryState(value) : undefined;
  return state === undefined ? show(value) : `${show(value)} (${state.description})`;
};

/**
 * `expect(body).toBeDeliveryReceipt({ ticketId, code: 4 })`: the received value decodes as a
 * delivery receipt (by core's decoder, in the format of its `Content-Type` or its first character)
 * and has the members given. A failure names the decoder's error and the member at fault, or each
 * member that differs.
 */
export function toBeDeliveryReceipt(this: SmsMatcherContext, received: unknown, expected: ExpectedReceipt = {}): SmsMatcherResult {
  if (!isObject(expected)) throw new TypeError('toBeDeliveryReceipt takes the expected members as an object');
  const head = hint(this, 'toBeDeliveryReceipt', Object.keys(expected).length === 0 ? '' : 'expected');
  const decoded = decodeReceived(received);
  if (!decoded.ok) {
    const why = 'reason' in decoded ? decoded.reason : `it does not decode: ${decoded.error.code}: ${decoded.error.description}${decoded.error.path === undefined ? '' : `\n  member: ${decoded.error.path}`}`;
    return { pass: false, message: () => `${head}\n\nExpected a delivery receipt, but ${why}` };
  }
  const receipt = decoded.value;
  const differences: string[] = [];
  for (const [key, want] of Object.entries(expected)) {
    if (key === 'destination' || key === 'source') {
      if (!isObject(want)) throw new TypeError(`expected ${key} must be an object`);
      const actual = receipt[key] as Record<string, unknown> | undefined;
      for (const [member, value] of Object.entries(want)) {
        if (!this.equals(actual?.[member], value)) differences.push(`  ${key}.${member}: expected ${show(value)}, received ${show(actual?.[member])}`);
      }
    } else {
      const actual = (receipt.mtStatus as Record<string, unknown>)[key];
      if (!this.equals(actual, want)) differences.push(`  mtStatus.${key}: expected ${withMeaning(key, want)}, received ${withMeaning(key, actual)}`);
    }
  }
  const pass = differences.length === 0;
  const summary = `ticket ${receipt.mtStatus.ticketId}${receipt.mtStatus.segmentNumber === undefined ? '' : ` part ${receipt.mtStatus.segmentNumber} of ${receipt.mtStatus.totalSegments ?? '?'}`}, code ${withMeaning('code', receipt.mtStatus.code)}`;
  return {
    pass,
    message: () =>
      pass
        ? `${head}\n\nExpected no delivery receipt${Object.keys(expected).length === 0 ? '' : ' with these members'}, but received one: ${summary}`
        : `${head}\n\nA delivery receipt (${summary}), but members differ:\n${differences.join('\n')}`,
  };
}
