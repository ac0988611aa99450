/**
 * Identifiers the sandbox issues: ticket IDs (4 groups of 5 upper-case letters and digits, 23
 * characters, as the real service's `44101-0922I-13413-21GDL`) and request IDs for the
 * `X-Request-Id` header (opaque; at most 45 characters for SMS, 1 to 30 for Invoke Service).
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function randomGroup(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let group = '';
  // 252 = 7 × 36: rejecting larger bytes keeps every character equally likely.
  for (let i = 0; i < length; i++) {
    let b = bytes[i] as number;
    while (b >= 252) b = (crypto.getRandomValues(new Uint8Array(1))[0] as number);
    group += ALPHABET[b % 36];
  }
  return group;
}

/** Issues ticket IDs that are unique within one sandbox (checked against `taken`). */
export function createTicketIdFactory(taken: (ticketId: string) => boolean): () => string {
  return () => {
    for (;;) {
      const id = `${randomGroup(5)}-${randomGroup(5)}-${randomGroup(5)}-${randomGroup(5)}`;
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
