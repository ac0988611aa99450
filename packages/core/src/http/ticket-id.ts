import { TICKET_ID_MAX_LENGTH, TICKET_ID_PATTERN } from '../resource-codec/wire-types.js';

const TICKET_ID = new RegExp(TICKET_ID_PATTERN);

/**
 * `true` for a ticket ID of the service's shape: hyphen-separated groups of letters and digits
 * (`44101-0922I-13413-21GDL`). IDs are opaque: group lengths are not checked, total length is
 * bounded by {@link TICKET_ID_MAX_LENGTH} to keep hostile input out of URLs.
 */
export function isTicketId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= TICKET_ID_MAX_LENGTH && TICKET_ID.test(value);
}

/** The ticket ID of a `Location` header: its last path segment; `undefined` when it has none of the right shape. */
export function ticketIdFromLocation(location: string | null | undefined): string | undefined {
  if (typeof location !== 'string' || location.length === 0) return undefined;
  let path: string;
  try {
    path = new URL(location).pathname;
  } catch {
    path = location.split(/[?#]/, 1)[0] ?? '';
  }
  const segment = path.replace(/\/+$/, '').split('/').pop();
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment ?? '');
  } catch {
    return undefined;
  }
  return isTicketId(decoded) ? decoded : undefined;
}
