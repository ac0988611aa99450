import { describe, expect, it } from 'vitest';
import { concatenationElementOctets, partCapacity } from './capacity.js';

describe('partCapacity', () => {
  it.each([
    // header octets, septets, UCS-2 units, octets
    [0, 160, 70, 140],
    [4, 155, 68, 136], // one national shift table, single part
    [6, 153, 67, 134], // concatenation, 8-bit reference
    [7, 152, 66, 133], // concatenation, 16-bit reference (or two national tables, single part)
    [9, 149, 65, 131], // concatenation + one national table
    [12, 146, 64, 128], // concatenation + two national tables
    [13, 145, 63, 127], // 16-bit reference + two national tables
  ])('a %i-octet header leaves %i septets, %i UCS-2 units, %i octets', (header, septets, units, octets) => {
    expect(partCapacity('septet', header)).toBe(septets);
    expect(partCapacity('utf16-unit', header)).toBe(units);
    expect(partCapacity('octet', header)).toBe(octets);
  });

  it('pads the header to a septet boundary: floor((140 - n) * 8 / 7)', () => {
    for (let n = 0; n < 140; n++) expect(partCapacity('septet', n)).toBe(160 - Math.ceil((8 * n) / 7));
  });

  it('throws a TypeError on a header that leaves no room or an unknown unit', () => {
    expect(() => partCapacity('octet', 140)).toThrow(TypeError);
    expect(() => partCapacity('octet', -1)).toThrow(TypeError);
    expect(() => partCapacity('bit' as 'octet', 0)).toThrow(TypeError);
  });

  it('sizes the concatenation element', () => {
    expect(concatenationElementOctets(8)).toBe(5);
    expect(concatenationElementOctets(16)).toBe(6);
  });
});
