import { describe, expect, it } from 'vitest';
import { parseBasicAuthorization } from './basic-auth.js';
import { buildInvokeServiceRequest } from './requests.js';

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
