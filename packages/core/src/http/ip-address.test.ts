import { BlockList, isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAddressAllowList, normalizeIpAddress } from './ip-address.js';

/** Node's own reading of addresses and ranges: the oracle the properties compare with. */
function nodeMatches(network: string, prefix: number, family: 'ipv4' | 'ipv6', address: string): boolean {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

const ipv4Octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const ipv4 = ipv4Octets.map((o) => o.join('.'));
const words = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 });
const ipv6Full = words.map((w) => w.map((x) => x.toString(16)).join(':'));

/** The network address of `octets` under a prefix (host bits cleared). */
function network(octets: readonly number[], bits: number): number[] {
  return octets.map((o, i) => {
    const keep = Math.max(0, Math.min(8, bits - 8 * i));
    return o & ((0xff << (8 - keep)) & 0xff);
  });
}

function v6Text(octets: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < 16; i += 2) out.push((((octets[i] as number) << 8) | (octets[i + 1] as number)).toString(16));
  return out.join(':');
}

describe('normalizeIpAddress', () => {
  it('reads an IPv4-mapped IPv6 address as the IPv4 address it carries', () => {
    expect(normalizeIpAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIpAddress('::FFFF:7f00:1')).toBe('127.0.0.1');
    expect(normalizeIpAddress('0:0:0:0:0:ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(normalizeIpAddress('[::ffff:10.1.2.3]')).toBe('10.1.2.3');
  });

  it('writes IPv6 in lower-case compressed form, without brackets or zone', () => {
    expect(normalizeIpAddress('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(normalizeIpAddress('[::1]')).toBe('::1');
    expect(normalizeIpAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(normalizeIpAddress('1:0:0:2:0:0:0:3')).toBe('1:0:0:2::3');
    expect(normalizeIpAddress('1:0:2:3:4:5:6:7')).toBe('1:0:2:3:4:5:6:7');
  });

  it('refuses what is not an address', () => {
    for (const text of ['', 'localhost', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1::2::3', ':1', '1:2:3:4:5:6:7:8:9', '1::2:3:4:5:6:7:8', '1.2.3.4::', 'g::1', ' ']) {
      expect(normalizeIpAddress(text)).toBeUndefined();
    }
    expect(normalizeIpAddress(undefined)).toBeUndefined();
  });

  it('reads every IPv4 address as Node does, and an IPv4-mapped form as the same address', () => {
    fc.assert(
      fc.property(ipv4, (address) => {
        expect(isIP(address)).toBe(4);
        expect(normalizeIpAddress(address)).toBe(address);
        expect(normalizeIpAddress(`::ffff:${address}`)).toBe(address);
      }),
    );
  });

  it('reads every full IPv6 address, and its compressed form back to the same address', () => {
    fc.assert(
      fc.property(ipv6Full, (address) => {
        const normal = normalizeIpAddress(address);
        expect(normal).toBeDefined();
        expect(isIP(normal as string)).toBe(6);
        expect(normalizeIpAddress(normal as string)).toBe(normal);
        expect(normalizeIpAddress(address.toUpperCase())).toBe(normal);
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (text) => void normalizeIpAddress(text)));
  });
});

describe('createAddressAllowList', () => {
  it('matches single addresses and ranges, IPv4-mapped peers included', () => {
    const allowed = createAddressAllowList(['127.0.0.1', '10.0.0.0/8', '203.0.113.0/24', '2001:db8::/32', '::1']);
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1', '10.255.1.2', '::ffff:10.0.0.1', '203.0.113.77', '2001:DB8::42', '2001:db8:ffff::1', '::1', '[::1]']) {
      expect(allowed(ip), ip).toBe(true);
    }
    for (const ip of ['127.0.0.2', '11.0.0.1', '203.0.114.1', '2001:db9::1', '::2', undefined, '', 'localhost', '10.0.0.1, 192.0.2.1']) {
      expect(allowed(ip), String(ip)).toBe(false);
    }
  });

  it('takes an IPv4-mapped range as the IPv4 range it covers', () => {
    const allowed = createAddressAllowList(['::ffff:10.0.0.0/104']);
    expect(allowed('10.1.2.3')).toBe(true);
    expect(allowed('11.1.2.3')).toBe(false);
  });

  it('refuses entries that are not addresses, or ranges with host bits set', () => {
    for (const entry of ['localhost', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/', '10.1.2.3/8', '2001:db8::1/32', '::/129', '::ffff:10.0.0.0/8']) {
      expect(() => createAddressAllowList([entry]), entry).toThrow(TypeError);
    }
    expect(() => createAddressAllowList('10.0.0.0/8' as unknown as string[])).toThrow(TypeError);
  });

  it('matches IPv4 ranges as Node’s BlockList does', () => {
    fc.assert(
      fc.property(ipv4Octets, fc.integer({ min: 0, max: 32 }), ipv4Octets, (base, bits, peer) => {
        const net = network(base, bits).join('.');
        const address = peer.join('.');
        const allowed = createAddressAllowList([`${net}/${bits}`]);
        expect(allowed(address)).toBe(nodeMatches(net, bits, 'ipv4', address));
        // The network itself is always in its range.
        expect(allowed(net)).toBe(true);
      }),
    );
  });

  it('matches IPv6 ranges as Node’s BlockList does', () => {
    const octets = fc.array(fc.nat(255), { minLength: 16, maxLength: 16 });
    fc.assert(
      fc.property(octets, fc.integer({ min: 0, max: 128 }), octets, fc.nat(16), (base, bits, peer, shared) => {
        // Peers sharing a leading run of octets with the network, so that near misses are tried.
        const near = peer.map((o, i) => (i < shared ? (base[i] as number) : o));
        const net = v6Text(network(base, bits));
        const address = v6Text(near);
        // Node reads an IPv4-mapped peer as IPv4 too; compare only genuine IPv6 peers.
        fc.pre(!(normalizeIpAddress(address) as string).includes('.') && !(normalizeIpAddress(net) as string).includes('.'));
        const allowed = createAddressAllowList([`${net}/${bits}`]);
        expect(allowed(address)).toBe(nodeMatches(net, bits, 'ipv6', address));
      }),
    );
  });
});
