/**
 * IP addresses as a receiver's allow-list needs them: written forms normalised (an IPv4-mapped
 * IPv6 address such as `::ffff:127.0.0.1` is the IPv4 address it carries, IPv6 in lower case and
 * compressed form), and ranges in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`) matched bit by bit.
 * Runtime-neutral: 16 octets per address, no `node:net`.
 */

/** An address read: its family and its octets (4 for IPv4, 16 for IPv6). */
interface ParsedAddress {
  readonly family: 4 | 6;
  readonly octets: Uint8Array;
}

const IPV4_PART = /^(?:0|[1-9]\d{0,2})$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;

/** Reads dotted-quad IPv4 (four decimal parts 0–255, no leading zeros: `010` is refused, not read as octal). */
function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const octets = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i] as string;
    if (!IPV4_PART.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    octets[i] = value;
  }
  return octets;
}

/** Reads IPv6 (with `::`, an embedded IPv4 tail, and a zone `%eth0` ignored). */
function parseIpv6(input: string): Uint8Array | undefined {
  const zone = input.indexOf('%');
  const text = zone === -1 ? input : input.slice(0, zone);
  if (text.length > 45 || text === '') return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): number[] | undefined => {
    if (half === '') return [];
    const pieces = half.split(':');
    const words: number[] = [];
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] as string;
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        words.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
      } else {
        if (!HEXTET.test(piece)) return undefined;
        words.push(Number.parseInt(piece, 16));
      }
    }
    return words;
  };
  const head = groupsOf(halves[0] as string);
  const tail = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  if (head === undefined || tail === undefined) return undefined;
  // An embedded IPv4 address only at the very end.
  if (halves.length === 2 && (halves[0] as string).includes('.')) return undefined;
  const count = head.length + tail.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined;
  const words = [...head, ...new Array<number>(8 - count).fill(0), ...tail];
  const octets = new Uint8Array(16);
  words.forEach((word, i) => {
    octets[2 * i] = word >> 8;
    octets[2 * i + 1] = word & 0xff;
  });
  return octets;
}

/** `::ffff:a.b.c.d`: the IPv4 address an IPv6 socket reports for an IPv4 peer. */
function isIpv4Mapped(octets: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (octets[i] !== 0) return false;
  return octets[10] === 0xff && octets[11] === 0xff;
}

/** Reads an address; an IPv4-mapped IPv6 address is read as the IPv4 address it carries. */
function parseAddress(text: string): ParsedAddress | undefined {
  if (typeof text !== 'string') return undefined;
  let trimmed = text.trim();
  // `[::1]` as written in URLs and some proxies' headers.
  if (trimmed.startsWith('[') && trimmed.endsWith(']')) trimmed = trimmed.slice(1, -1);
  if (!trimmed.includes(':')) {
    const v4 = parseIpv4(trimmed);
    return v4 === undefined ? undefined : { family: 4, octets: v4 };
  }
  const v6 = parseIpv6(trimmed);
  if (v6 === undefined) return undefined;
  return isIpv4Mapped(v6) ? { family: 4, octets: v6.slice(12) } : { family: 6, octets: v6 };
}

/** The canonical text of an IPv6 address (RFC 5952: lower case, longest run of zero groups as `::`). */
function formatIpv6(octets: Uint8Array): string {
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((octets[i] as number) << 8) | (octets[i + 1] as number));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * The canonical text of an IP address: IPv4 as a dotted quad (an IPv4-mapped IPv6 address such
 * as `::ffff:127.0.0.1` becomes `127.0.0.1`), IPv6 in RFC 5952 form (lower case, compressed,
 * brackets and zone dropped). `undefined` for anything that is not an IP address.
 *
 * @example
 * normalizeIpAddress('::ffff:127.0.0.1'); // '127.0.0.1'
 * normalizeIpAddress('2001:DB8:0:0:0:0:0:1'); // '2001:db8::1'
 */
export function normalizeIpAddress(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const parsed = parseAddress(address);
  if (parsed === undefined) return undefined;
  return parsed.family === 4 ? Array.from(parsed.octets).join('.') : formatIpv6(parsed.octets);
}

/** One range of an allow-list: the network's octets and its prefix length. */
interface Range {
  readonly family: 4 | 6;
  readonly octets: Uint8Array;
  readonly bits: number;
}

function parseRange(entry: string): Range {
  if (typeof entry !== 'string') throw new TypeError(`an address range must be a string, got ${typeof entry}`);
  const slash = entry.indexOf('/');
  const addressText = slash === -1 ? entry : entry.slice(0, slash);
  const address = parseAddress(addressText);
  if (address === undefined) throw new TypeError(`not an IP address or CIDR range: '${entry}'`);
  const mappedV6 = addressText.includes(':') && address.family === 4;
  const maxBits = address.family === 4 ? 32 : 128;
  let bits = maxBits;
  if (slash !== -1) {
    const prefix = entry.slice(slash + 1).trim();
    if (!/^\d{1,3}$/.test(prefix)) throw new TypeError(`the prefix length of '${entry}' must be a whole number`);
    bits = Number(prefix);
    // `::ffff:10.0.0.0/104` is the IPv4 range 10.0.0.0/8.
    if (mappedV6) {
      if (bits < 96) throw new TypeError(`'${entry}' spans more than IPv4-mapped addresses: write the IPv4 range instead`);
      bits -= 96;
    }
    if (bits > maxBits) throw new TypeError(`the prefix length of '${entry}' is more than ${maxBits}`);
  }
  // Host bits set (10.1.2.3/8) would be a typo that widens or narrows silently: refused.
  for (let i = 0; i < address.octets.length * 8; i++) {
    if (i >= bits && (((address.octets[i >> 3] as number) >> (7 - (i & 7))) & 1) === 1) {
      throw new TypeError(`'${entry}' has bits set past its /${slash === -1 ? bits : entry.slice(slash + 1).trim()} prefix: write the network address`);
    }
  }
  return { family: address.family, octets: address.octets, bits };
}

function inRange(range: Range, address: ParsedAddress): boolean {
  if (range.family !== address.family) return false;
  const whole = range.bits >> 3;
  for (let i = 0; i < whole; i++) if (range.octets[i] !== address.octets[i]) return false;
  const rest = range.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((range.octets[whole] as number) & mask) === ((address.octets[whole] as number) & mask);
}

/**
 * An allow-list of IP addresses and CIDR ranges, as a function for a receiver's
 * `allowRemoteAddress`. Addresses are compared as numbers, not text: `::ffff:203.0.113.9`
 * matches `203.0.113.0/24`, `2001:DB8::1` matches `2001:db8::/32`. Anything that is not an IP
 * address (an absent peer, a hostname) is refused.
 *
 * @throws TypeError for an entry that is not an address or a range, or a range with host bits set.
 *
 * @example
 * createWebhookHandler({
 *   allowRemoteAddress: createAddressAllowList(['203.0.113.0/24', '2001:db8::/32']),
 *   onDeliveryReceipt: saveReceipt,
 * });
 */
export function createAddressAllowList(entries: readonly string[]): (remoteAddress: string | undefined) => boolean {
  if (!Array.isArray(entries)) throw new TypeError('createAddressAllowList takes an array of addresses and CIDR ranges');
  const ranges = entries.map(parseRange);
  return (remoteAddress) => {
    if (typeof remoteAddress !== 'string') return false;
    const address = parseAddress(remoteAddress);
    if (address === undefined) return false;
    for (const range of ranges) if (inRange(range, address)) return true;
    return false;
  };
}
