/** Reading what a matcher received: a body, a built payload, a request or answer, or a value. */
import { formatOfContentType, type WireFormat } from '@smsv4/core';
import { sniffFormat } from '../http/body-format.js';

/** A document received as text with its format. */
export interface ReceivedBody {
  readonly kind: 'body';
  readonly text: string;
  readonly format: WireFormat;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `Content-Type` of a headers value: a `Headers`, a plain record (any case), or Node's incoming headers. */
function contentTypeOf(headers: unknown): string | undefined {
  if (headers instanceof Headers) return headers.get('content-type') ?? undefined;
  if (!isObject(headers)) return undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'content-type') return Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/**
 * The document of a received value, when it is one: text or octets; a built payload
 * (`{ body, format }`); or a request or recorded callback (`{ body, headers }`, format from its
 * `Content-Type`, else sniffed). `undefined` for anything else.
 */
export function receivedBody(received: unknown): ReceivedBody | undefined {
  if (typeof received === 'string') return { kind: 'body', text: received, format: sniffFormat(received) };
  if (received instanceof Uint8Array) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(received);
    return { kind: 'body', text, format: sniffFormat(text) };
  }
  if (!isObject(received)) return undefined;
  const body = received.body;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return undefined;
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const format = received.format === 'json' || received.format === 'xml' ? received.format : (formatOfContentType(contentTypeOf(received.headers) ?? (typeof received.contentType === 'string' ? received.contentType : undefined)) ?? sniffFormat(text));
  return { kind: 'body', text, format };
}

export { isObject };
