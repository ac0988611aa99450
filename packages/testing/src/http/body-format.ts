/** Telling the format of a body that comes without one. */
import { formatOfContentType, type WireFormat } from '@smsv4/core';

/** `xml` when the first character that is not white space (or a byte order mark) is `<`, else `json`. */
export function sniffFormat(body: string | Uint8Array): WireFormat {
  const text = typeof body === 'string' ? body.slice(0, 64) : new TextDecoder().decode(body.subarray(0, 64));
  return /^[\s\uFEFF]*</.test(text) ? 'xml' : 'json';
}

/** The format of a body with an optional `Content-Type`: the header's when it names one, else sniffed. */
export function formatOf(body: string | Uint8Array, contentType: string | null | undefined): WireFormat {
  return formatOfContentType(contentType) ?? sniffFormat(body);
}
