import { describe, expect, it } from 'vitest';
import { checkInvokeServiceRequestLine, invokeServicePath } from './request-line.js';

const DESCRIPTIONS = {
  12003: 'Invalid HTTP method',
  12004: 'Invalid API version',
  12005: 'Invalid query parameter',
  12006: 'Invalid request URL',
} as const;

describe('checkInvokeServiceRequestLine', () => {
  it.each([
    ['/service/v1/invokeService/4f3a9b', '4f3a9b'],
    ['https://servicemanager.openmarket.com/service/v1/invokeService/ABCDEF0123', 'ABCDEF0123'],
    ['/service/v1/invokeService/%34%66', '4f'],
    ['/service/v1/invokeService/4f?', '4f'],
    ['/service/v1/invokeService/4f#fragment', '4f'],
  ])('POST %s → service %s', (url, serviceId) => {
    expect(checkInvokeServiceRequestLine({ method: 'POST', url })).toEqual({ ok: true, value: { serviceId } });
  });

  it('takes a URL object', () => {
    const url = new URL('https://servicemanager-cie.openmarket.com/service/v1/invokeService/00ff');
    expect(checkInvokeServiceRequestLine({ method: 'POST', url })).toEqual({ ok: true, value: { serviceId: '00ff' } });
  });

  it.each([
    ['GET', '/service/v1/invokeService/4f', 12003],
    ['PUT', '/service/v1/invokeService/4f', 12003],
    ['post', '/service/v1/invokeService/4f', 12003],
    ['POST', '/service/v2/invokeService/4f', 12004],
    ['POST', '/service/V1/invokeService/4f', 12004],
    ['POST', '/service/v0/other/4f', 12004],
    ['POST', '/service/v1/invokeService/4f?debug=1', 12005],
    ['POST', '/service/v1/invokeService/4f?x', 12005],
    ['POST', 'https://h.example/service/v1/invokeService/4f?a=1&b=2', 12005],
    ['POST', '/service/v1/invokeservice/4f', 12006],
    ['POST', '/service/v1/runService/4f', 12006],
    ['POST', '/service/v1/invokeService', 12006],
    ['POST', '/service/v1/invokeService/', 12006],
    ['POST', '/service/v1/invokeService/4g', 12006],
    ['POST', '/service/v1/invokeService/0x4f', 12006],
    ['POST', '/service/v1/invokeService/4f%20', 12006],
    ['POST', '/service/v1/invokeService/%E0%A4%A', 12006],
    ['POST', '/service/v1/invokeService/4f/extra', 12006],
    ['POST', '/service/v1/invokeService/4f/', 12006],
    ['POST', '/service/v1', 12006],
    ['POST', '/service/', 12006],
    ['POST', '/services/v1/invokeService/4f', 12006],
    ['POST', '/', 12006],
    ['POST', 'http://[invalid', 12006],
  ] as const)('%s %s → %d', (method, url, code) => {
    expect(checkInvokeServiceRequestLine({ method, url })).toEqual({ ok: false, error: { code, description: DESCRIPTIONS[code] } });
  });

  it('checks the path before the method and the method before the query', () => {
    expect(checkInvokeServiceRequestLine({ method: 'GET', url: '/service/v2/invokeService/4f?x=1' })).toMatchObject({ error: { code: 12004 } });
    expect(checkInvokeServiceRequestLine({ method: 'GET', url: '/service/v1/nope/4f?x=1' })).toMatchObject({ error: { code: 12006 } });
    expect(checkInvokeServiceRequestLine({ method: 'GET', url: '/service/v1/invokeService/4f?x=1' })).toMatchObject({ error: { code: 12003 } });
  });

  it('misuse is a TypeError', () => {
    expect(() => checkInvokeServiceRequestLine({ method: 1 as unknown as string, url: '/' })).toThrow(TypeError);
    expect(() => checkInvokeServiceRequestLine({ method: 'POST', url: {} as unknown as string })).toThrow(TypeError);
  });
});

describe('invokeServicePath', () => {
  it('builds the path, and the check accepts it', () => {
    expect(invokeServicePath('4F3a9b')).toBe('/service/v1/invokeService/4F3a9b');
    expect(checkInvokeServiceRequestLine({ method: 'POST', url: invokeServicePath('4F3a9b') })).toEqual({ ok: true, value: { serviceId: '4F3a9b' } });
  });
  it.each([[''], ['xyz'], ['4f/..'], ['4f?a=1'], [' 4f'], [42]])('%j is a TypeError', (id) => {
    expect(() => invokeServicePath(id as string)).toThrow(TypeError);
  });
});
