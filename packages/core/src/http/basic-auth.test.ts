import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basicAuthorization, credentialsMatch, parseBasicAuthorization, timingSafeEqual } from './basic-auth.js';

describe('Basic authentication', () => {
  it('encodes accountid:password as the spec shows, matching Node', () => {
    const header = basicAuthorization({ accountId: '000-000-000-00000', password: 'Pa55w0rd' });
    expect(header).toBe(`Basic ${Buffer.from('000-000-000-00000:Pa55w0rd').toString('base64')}`);
  });

  it('round-trips any credentials, UTF-8 included, byte-identical to Buffer', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }).filter((s) => !s.includes(':')), fc.string({ unit: 'grapheme' }), (accountId, password) => {
        const header = basicAuthorization({ accountId, password });
        expect(header).toBe(`Basic ${Buffer.from(`${accountId}:${password}`, 'utf8').toString('base64')}`);
        expect(parseBasicAuthorization(header)).toEqual({ accountId, password });
      }),
    );
  });

  it('keeps colons of the password (only the first colon separates)', () => {
    expect(parseBasicAuthorization(basicAuthorization({ accountId: 'a', password: 'b:c' }))).toEqual({ accountId: 'a', password: 'b:c' });
  });

  it('refuses an account ID with a colon, which Basic cannot carry', () => {
    expect(() => basicAuthorization({ accountId: 'a:b', password: 'c' })).toThrow(TypeError);
  });

  it.each([undefined, '', 'Bearer abc', 'Basic', 'Basic !!!', `Basic ${btoa('nocolon')}`, `Basic ${btoa('\xff\xfe:x')}`])('reads %j as no credentials', (h) => {
    expect(parseBasicAuthorization(h)).toBeUndefined();
  });

  it('accepts the scheme name in any case', () => {
    expect(parseBasicAuthorization(`bAsIc ${btoa('a:b')}`)).toEqual({ accountId: 'a', password: 'b' });
  });
});

describe('constant-time comparison', () => {
  it('agrees with === on any pair of strings', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => timingSafeEqual(a, b) === (a === b)));
  });
  it('is case-sensitive on both members and refuses missing credentials', () => {
    const expected = { accountId: 'Acct', password: 'Secret' };
    expect(credentialsMatch({ accountId: 'Acct', password: 'Secret' }, expected)).toBe(true);
    expect(credentialsMatch({ accountId: 'acct', password: 'Secret' }, expected)).toBe(false);
    expect(credentialsMatch({ accountId: 'Acct', password: 'secret' }, expected)).toBe(false);
    expect(credentialsMatch(undefined, expected)).toBe(false);
    expect(credentialsMatch(undefined, { accountId: '', password: '' })).toBe(false);
  });
});

describe('basicChallenge', () => {
  it('announces the realm and UTF-8, dropping characters that would break the header', async () => {
    const { basicChallenge } = await import('./basic-auth.js');
    expect(basicChallenge('sms-callbacks')).toBe('Basic realm="sms-callbacks", charset="UTF-8"');
    expect(basicChallenge('a"b\\c')).toBe('Basic realm="abc", charset="UTF-8"');
  });
});
