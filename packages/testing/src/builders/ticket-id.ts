/** Ticket IDs shaped like the service's: hyphen-separated groups of upper-case letters and digits. */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A fresh random ticket ID of four groups of five characters (`44101-0922I-13413-21GDL` is one of
 * the service's), unique enough for tests that never name their own.
 */
export function randomTicketId(): string {
  const bytes = new Uint8Array(20);
  globalThis.crypto.getRandomValues(bytes);
  let id = '';
  bytes.forEach((byte, i) => {
    if (i > 0 && i % 5 === 0) id += '-';
    id += ALPHABET[byte % ALPHABET.length];
  });
  return id;
}
