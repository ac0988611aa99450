/**
 * Tells the format and the resource of a payload: the format from the file extension (else the
 * first character), the resource from the JSON root member or the XML root element. Detection is
 * lenient on purpose (a plain `JSON.parse`, a scan for the first element): a payload the service
 * would refuse as malformed is still recognised, so that it gets the service's own answer.
 */
import { INVOKE_ERRORS, type WireFormat } from '@smsv4/core';
import type { ResourceName } from '../resources.js';

/** JSON root members and XML root elements, and the resource each names (`error` is decided by its code). */
const ROOTS: Readonly<Record<string, ResourceName>> = Object.freeze({
  mobileTerminate: 'mt-request',
  mtStatus: 'mt-status',
  deliveryReceipt: 'delivery-receipt',
  mobileOriginate: 'mobile-originate',
  preview: 'preview',
  error: 'error-record',
  // The Invoke Service request has no wrapper: its members are the root's.
  endUser: 'invoke-service-request',
  variables: 'invoke-service-request',
});

const XML_ROOTS: ReadonlySet<string> = new Set(['mobileTerminate', 'mtStatus', 'deliveryReceipt', 'mobileOriginate', 'preview', 'error']);

/** The format of a file: `.json` or `.xml` by its extension (any case), else by its first character. */
export function detectFormat(source: string, text: string): WireFormat {
  const lower = source.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.xml')) return 'xml';
  return text.replace(/^\uFEFF/, '').trimStart().startsWith('<') ? 'xml' : 'json';
}

/** An `error` member is an Invoke Service error body when its code is an integer of the Invoke Service table. */
function errorKind(record: unknown): ResourceName {
  const code = typeof record === 'object' && record !== null ? (record as { code?: unknown }).code : undefined;
  return typeof code === 'number' && Object.hasOwn(INVOKE_ERRORS, code) ? 'invoke-error' : 'error-record';
}

function jsonResource(text: string): ResourceName | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Unparseable: the earliest known member name that is followed by a colon.
    let best: { at: number; name: string } | undefined;
    for (const name of Object.keys(ROOTS)) {
      const at = text.search(new RegExp(`"${name}"\\s*:`));
      if (at !== -1 && (best === undefined || at < best.at)) best = { at, name };
    }
    return best === undefined ? undefined : ROOTS[best.name];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  for (const key of Object.keys(parsed)) {
    if (!Object.hasOwn(ROOTS, key)) continue;
    return key === 'error' ? errorKind((parsed as Record<string, unknown>)[key]) : ROOTS[key];
  }
  return undefined;
}

/** The local name of the first element of an XML text (after the declaration, comments, a DOCTYPE). */
export function xmlRootName(text: string): string | undefined {
  const match = /<(?![?!])(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(text);
  return match?.[1];
}

/** The resource of a payload, or `undefined` when its root names none. */
export function detectResource(text: string, format: WireFormat): ResourceName | undefined {
  if (format === 'json') return jsonResource(text);
  const root = xmlRootName(text);
  return root !== undefined && XML_ROOTS.has(root) ? ROOTS[root] : undefined;
}

/** What {@link detectResource} recognises, for messages: the JSON members and XML elements. */
export const KNOWN_ROOTS: readonly string[] = Object.freeze(Object.keys(ROOTS));
