const TICKET_ID = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/;

/** The longest ticket ID the spec allows (the Location header's last segment: 23 characters). */
export const MAX_TICKET_ID_LENGTH = 23;

/**
 * `true` for a ticket ID of the service's shape: hyphen-separated groups of letters and digits
 * (`44101-0922I-13413-21GDL`). IDs are opaque: group lengths are not checked, total length is
 * bounded by 64 to keep hostile input out of URLs.
 */
export function isTicketId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 64 && TICKET_ID.test(value);
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
