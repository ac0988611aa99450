import type { WireFormat } from '../codec/wire-format.js';

/** Content-Type of JSON bodies, as the spec writes it for send. */
export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';
/** Content-Type of XML bodies. */
export const XML_CONTENT_TYPE = 'application/xml; charset=UTF-8';

/** The Content-Type header for a format. */
export function contentTypeFor(format: WireFormat): string {
  return format === 'json' ? JSON_CONTENT_TYPE : XML_CONTENT_TYPE;
}

/**
 * The wire format a Content-Type header announces: `application/json` or `application/xml`
 * (also `text/xml` and `+json` / `+xml` suffixes), parameters ignored, case-insensitive; a charset
 * parameter other than UTF-8 is refused. `undefined` means missing or unsupported (HTTP 415).
 */
export function formatOfContentType(header: string | null | undefined): WireFormat | undefined {
  if (typeof header !== 'string') return undefined;
  // The values the service (and this toolkit) write, in any case: answered without parsing, as the parse below would.
  const lower = header.toLowerCase();
  if (lower === 'application/xml; charset=utf-8') return 'xml';
  if (lower === 'application/json; charset=utf-8') return 'json';
  const [type = '', ...params] = header.split(';');
  const essence = type.trim().toLowerCase();
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    if (name.trim().toLowerCase() === 'charset' && !/^"?utf-?8"?$/i.test(value.trim())) return undefined;
  }
  if (essence === 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'))) return 'json';
  if (essence === 'application/xml' || essence === 'text/xml' || (essence.startsWith('application/') && essence.endsWith('+xml'))) return 'xml';
  return undefined;
}

/**
 * The format of a status or lookup answer for an `Accept` header: XML unless the header prefers JSON
 * (as the real service does). Quality values are honoured; `*\/*` or no header → XML.
 */
export function formatForAccept(header: string | null | undefined): WireFormat {
  if (typeof header !== 'string' || header.trim() === '') return 'xml';
  let best: { format: WireFormat; q: number } = { format: 'xml', q: -1 };
  for (const range of header.split(',')) {
    const [type = '', ...params] = range.split(';');
    const essence = type.trim().toLowerCase();
    const qParam = params.find((p) => p.trim().toLowerCase().startsWith('q='));
    const q = qParam ? Number.parseFloat(qParam.split('=')[1] ?? '1') : 1;
    if (!(q > 0)) continue;
    const format = essence === 'application/json' || essence.endsWith('+json') ? 'json' : essence.includes('xml') ? 'xml' : undefined;
    if (format && q > best.q) best = { format, q };
  }
  return best.format;
}
