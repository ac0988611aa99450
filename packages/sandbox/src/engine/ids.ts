/**
 * Identifiers the sandbox issues: ticket IDs (4 groups of 5 upper-case letters and digits, 23
 * characters, as the real service's `44101-0922I-13413-21GDL`) and request IDs for the
 * `X-Request-Id` header (opaque; at most 45 characters for SMS, 1 to 30 for Invoke Service).
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Fills `count` characters from the alphabet, each equally likely, with one call for random octets (and rarely more). */
function randomCharacters(count: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(count + 8));
  let text = '';
  let next = 0;
  while (text.length < count) {
    const b = next < bytes.length ? (bytes[next++] as number) : (crypto.getRandomValues(new Uint8Array(1))[0] as number);
    // 252 = 7 × 36: rejecting larger octets keeps every character equally likely.
    if (b < 252) text += ALPHABET[b % 36];
  }
  return text;
}

/** Issues ticket IDs that are unique within one sandbox (checked against `taken`). */
export function createTicketIdFactory(taken: (ticketId: string) => boolean): () => string {
  return () => {
    for (;;) {
      const c = randomCharacters(20);
      const id = `${c.slice(0, 5)}-${c.slice(5, 10)}-${c.slice(10, 15)}-${c.slice(15)}`;
      if (!taken(id)) return id;
    }
  };
}

/** An SMS request ID in the real service's shape: `001-3-` and an upper-case UUID (42 characters). */
export function smsRequestId(): string {
  return `001-3-${crypto.randomUUID().toUpperCase()}`;
}

/** An Invoke Service request ID: 30 hexadecimal characters. */
export function invokeRequestId(): string {
  return crypto.randomUUID().replaceAll('-', '').slice(0, 30);
}
