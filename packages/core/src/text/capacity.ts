/**
 * Capacities of one SMS part (3GPP TS 23.040): the user data holds 140 octets, of which a user data
 * header takes its share. Septets are packed after the header, which is padded to a septet
 * boundary, so an `n`-octet header leaves `floor((140 - n) * 8 / 7)` septets: 160 with none, 153
 * with the 6-octet concatenation header, 152 with the 7-octet one.
 */

/** Octets of user data in one part. */
export const USER_DATA_OCTETS = 140;

/** What a part's capacity is counted in. */
export type CapacityUnit = 'septet' | 'utf16-unit' | 'octet';

/** Width of the concatenation reference: 8 bits (IEI 00, 6-octet header) or 16 bits (IEI 08, 7-octet header). */
export type ReferenceBits = 8 | 16;

/** Octets of the concatenation information element (identifier, length and data). */
export function concatenationElementOctets(referenceBits: ReferenceBits): number {
  return referenceBits === 16 ? 6 : 5;
}

/**
 * Units one part holds after a user data header of `headerOctets` octets (length octet included;
 * 0 = no header).
 * @throws TypeError when the header leaves no room or the unit is unknown.
 */
export function partCapacity(unit: CapacityUnit, headerOctets: number): number {
  if (!Number.isInteger(headerOctets) || headerOctets < 0 || headerOctets >= USER_DATA_OCTETS) {
    throw new TypeError(`partCapacity: a user data header of ${headerOctets} octets leaves no room in a part`);
  }
  const octets = USER_DATA_OCTETS - headerOctets;
  switch (unit) {
    case 'septet':
      return Math.floor((octets * 8) / 7);
    case 'utf16-unit':
      return octets >> 1;
    case 'octet':
      return octets;
    default:
      throw new TypeError(`partCapacity: unknown unit ${String(unit)}`);
  }
}
