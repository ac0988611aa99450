import { describe, expect, it } from 'vitest';
import { parseBasicAuthorization } from './basic-auth.js';
import { buildInvokeServiceRequest, buildLookupRequest, buildSendRequest, buildStatusRequest, prepareRequestContext } from './requests.js';

const context = { endpoints: { baseUrl: 'https://servicemanager.test' }, credentials: { accountId: 'acct-1', password: 'secret' } };
const request = { endUser: { phoneNumber: '14255550100' } };

describe('buildInvokeServiceRequest authentication', () => {
  it('uses HTTP Basic by default', () => {
    const req = buildInvokeServiceRequest(context, 'a1b2', request);
    expect(parseBasicAuthorization(req.headers['authorization'])).toEqual(context.credentials);
    expect(buildInvokeServiceRequest(context, 'a1b2', request, { authentication: 'basic' }).headers).toEqual(req.headers);
  });

  it('sends no Authorization header when the TLS client certificate authenticates (mutual TLS)', () => {
    const req = buildInvokeServiceRequest(context, 'a1b2', request, { authentication: 'client-certificate' });
    expect(Object.keys(req.headers).map((name) => name.toLowerCase())).not.toContain('authorization');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.url).toBe('https://servicemanager.test/service/v1/invokeService/a1b2');
  });

  it('refuses an unknown authentication as a programmer error', () => {
    expect(() => buildInvokeServiceRequest(context, 'a1b2', request, { authentication: 'token' as 'basic' })).toThrow(TypeError);
  });
});

describe('prepareRequestContext', () => {
  const bases = [
    'http://127.0.0.1:4010',
    'http://127.0.0.1:4010/',
    'https://smsc.openmarket.com',
    'https://EXAMPLE.test:443/api/v1//',
    'https://user:pa%20ss@example.test/pre fix/?q=1#frag',
    'http://[::1]:8080/a/b',
    'https://example.test/%7Euser/',
  ];
  const credentials = [
    { accountId: 'acct-1', password: 'p@ss:word' },
    { accountId: 'kønto', password: 'pässwörd ✓' },
  ];
  const invoke = { endUser: { phoneNumber: '14255550100' } };
  const mt = { destination: { address: '14255550100' }, message: { type: 'text' as const, content: 'Hi' } };

  it.each(bases)('every builder returns the same request for the prepared context (%s)', (base) => {
    for (const creds of credentials) {
      const plain = { endpoints: { baseUrl: base, urls: { lookup: 'https://preview.test/x/' } }, credentials: creds };
      const prepared = prepareRequestContext(plain);
      for (const format of ['json', 'xml'] as const) expect(buildSendRequest(prepared, mt, format)).toEqual(buildSendRequest(plain, mt, format));
      expect(buildStatusRequest(prepared, '44101-0922I-13413-21GDL', 'json')).toEqual(buildStatusRequest(plain, '44101-0922I-13413-21GDL', 'json'));
      expect(buildLookupRequest(prepared, '14255550100')).toEqual(buildLookupRequest(plain, '14255550100'));
      expect(buildInvokeServiceRequest(prepared, 'A1b2', invoke)).toEqual(buildInvokeServiceRequest(plain, 'A1b2', invoke));
      expect(buildInvokeServiceRequest(prepared, 'a1', invoke, { authentication: 'client-certificate' })).toEqual(
        buildInvokeServiceRequest(plain, 'a1', invoke, { authentication: 'client-certificate' }),
      );
    }
  });

  it('refuses invalid credentials and base URLs at once', () => {
    expect(() => prepareRequestContext({ endpoints: { baseUrl: 'not a url' }, credentials: credentials[0] as (typeof credentials)[0] })).toThrow(TypeError);
    expect(() => prepareRequestContext({ endpoints: { baseUrl: 'http://x' }, credentials: { accountId: 'a:b', password: 'p' } })).toThrow(TypeError);
  });
});
