import { describe, expect, it } from 'vitest';
import { callbackTarget, redactUrl } from './callback-url.js';

const basic = (user: string, password: string): string => `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)))}`;

describe('callbackTarget', () => {
  it('turns the userinfo into Basic credentials, percent-decoded, and posts to the URL without it', () => {
    const target = callbackTarget('http://acme:p%40ss%3Aw%2Frd%20%C3%A9@127.0.0.1:3000/sms?x=1');
    expect(target).toEqual({ ok: true, url: new URL('http://127.0.0.1:3000/sms?x=1'), authorization: basic('acme', 'p@ss:w/rd é') });
    expect(callbackTarget('http://127.0.0.1:3000/sms')).toEqual({ ok: true, url: new URL('http://127.0.0.1:3000/sms') });
    // A user name alone is still Basic credentials, with an empty password.
    expect(callbackTarget('http://acme@127.0.0.1/')).toMatchObject({ ok: true, authorization: basic('acme', '') });
  });

  it('takes a stray % as it is rather than failing the callback', () => {
    expect(callbackTarget('http://acme:100%25%zz%41@127.0.0.1/')).toMatchObject({ ok: true, authorization: basic('acme', '100%%zzA') });
  });

  it('refuses what Basic cannot carry or is not a web URL, and never throws', () => {
    expect(callbackTarget('http://a%3Ab:c@127.0.0.1/')).toMatchObject({ ok: false, error: expect.stringContaining('colon') });
    expect(callbackTarget('ftp://127.0.0.1/')).toMatchObject({ ok: false });
    expect(callbackTarget('not a url')).toMatchObject({ ok: false });
  });
});

describe('redactUrl', () => {
  it('keeps the user name and hides the password', () => {
    expect(redactUrl('https://acme:s3cret@receiver.example/sms')).toBe('https://acme:***@receiver.example/sms');
    expect(redactUrl('https://receiver.example/sms')).toBe('https://receiver.example/sms');
    expect(redactUrl('https://acme:s3cret@[bad/sms')).not.toContain('s3cret');
  });
});
