// The sandbox against the OpenAPI document: every operation in both formats, success and each
// class of error, and the receipts and inbound messages it posts, checked by an OpenAPI response
// validator (openapi-response-validator) against the document `smsv4 openapi` generates, over real
// HTTP on loopback, with the headers the document marks required. XML bodies: the root element and namespace of the schema's
// `xml` hints, and the resource they carry (read by core, written as JSON) against the same schema.
import {
  basicAuthorization,
  decodeDeliveryReceipt,
  decodeErrorRecord,
  decodeMobileOriginate,
  decodeMtStatus,
  decodePreview,
  encodeDeliveryReceipt,
  encodeErrorRecord,
  encodeMobileOriginate,
  encodeMtRequest,
  encodeMtStatus,
  encodePreview,
  type MtRequest,
  type WireFormat,
} from '@smsv4/core';
import { createManualClock, createSandbox, type SandboxServer } from '@smsv4/sandbox';
import OpenAPIResponseValidator from 'openapi-response-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const document = buildOpenApiDocument() as Json;
const Validator = ((OpenAPIResponseValidator as unknown as { default?: typeof OpenAPIResponseValidator }).default ?? OpenAPIResponseValidator) as typeof OpenAPIResponseValidator;

/** What the sandbox posted to the receiver. */
interface Posted {
  url: string;
  headers: Headers;
  body: string;
}
const posted: Posted[] = [];
const clock = createManualClock();
const sandbox = createSandbox({
  clock,
  // The receiver: records every callback and takes it (200).
  fetch: (async (input: string | URL | Request, init?: RequestInit) => {
    posted.push({ url: String(input), headers: new Headers(init?.headers), body: String(init?.body ?? '') });
    return new Response(null, { status: 200 });
  }) as typeof fetch,
});
// Over real HTTP on loopback: the answers as the Node listener writes them.
let server: SandboxServer;
beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
});

const auth = (account = 'sandbox'): string => basicAuthorization({ accountId: account, password: `${account}-password` });
const call = (path: string, init: RequestInit = {}): Promise<Response> => fetch(`${server.url}${path}`, init);
const mt = (extra: Partial<MtRequest> = {}): MtRequest => ({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hello' }, ...extra });
const send = (format: WireFormat, request: MtRequest, account = 'sandbox', accept?: string): Promise<Response> =>
  call('/sms/v4/mt', {
    method: 'POST',
    headers: { authorization: auth(account), 'content-type': `application/${format}`, ...(accept === undefined ? {} : { accept }) },
    body: encodeMtRequest(request, format),
  });

/** An operation's responses with one media type only (the validator reads the first it finds). */
function only(responses: Json, type: string): Json {
  const out: Json = {};
  for (const [status, response] of Object.entries(responses)) {
    const content = (response as Json).content as Json | undefined;
    out[status] = content?.[type] === undefined ? { description: (response as Json).description } : { ...(response as Json), content: { [type]: content[type] } };
  }
  return out;
}

const READERS: Record<string, (body: string, format: WireFormat) => string | undefined> = {
  ErrorRecord: (body, format) => { const r = decodeErrorRecord(body, format); return r.ok ? encodeErrorRecord(r.value, 'json') : undefined; },
  MtStatus: (body, format) => { const r = decodeMtStatus(body, format); return r.ok ? encodeMtStatus(r.value, 'json') : undefined; },
  Preview: (body, format) => { const r = decodePreview(body, format); return r.ok ? encodePreview(r.value, 'json') : undefined; },
  DeliveryReceipt: (body, format) => { const r = decodeDeliveryReceipt(body, format); return r.ok ? encodeDeliveryReceipt(r.value, 'json') : undefined; },
  MobileOriginate: (body, format) => { const r = decodeMobileOriginate(body, format); return r.ok ? encodeMobileOriginate(r.value, 'json') : undefined; },
};

/** Problems of a body against a responses object, read as `type` (JSON as it is; XML as above). */
function bodyProblems(responses: Json, status: number, type: 'application/json' | 'application/xml', body: string): unknown[] {
  const media = (responses[String(status)] as Json).content?.[type] as Json | undefined;
  if (media === undefined) return [`no ${type} body documented for ${status}`];
  let json: unknown;
  if (type === 'application/json') json = JSON.parse(body);
  else {
    const component = (media.schema.$ref as string).split('/').pop() as string;
    const hints = document.components.schemas[component].xml as { name: string; namespace?: string };
    const root = new RegExp(`<${hints.name}(?=[\\s>/])[^>]*?${hints.namespace === undefined ? '' : `xmlns="${hints.namespace.replace(/[.]/g, '\\.')}"`}`);
    if (!root.test(body)) return [`the XML root is not <${hints.name}> in ${hints.namespace ?? 'no namespace'}: ${body.slice(0, 120)}`];
    const asJson = READERS[component]?.(body, 'xml');
    if (asJson === undefined) return [`core does not read the XML body as ${component}`];
    json = JSON.parse(asJson);
    responses = only({ [String(status)]: { description: '', content: { 'application/json': { schema: { $ref: `#/components/schemas/${component}Body` } } } } }, 'application/json');
  }
  const validator = new Validator({ responses: only(responses, 'application/json'), components: document.components } as never);
  return validator.validateResponse(status, json)?.errors ?? [];
}

/** Checks an answer against an operation: a documented status, its required headers, its body. */
async function conforms(response: Response, path: string, method: string, expected: number): Promise<void> {
  expect(response.status).toBe(expected);
  const operation = document.paths[path][method] as Json;
  const documented = operation.responses[String(response.status)] as Json | undefined;
  expect(documented, `${method} ${path} documents ${response.status}`).toBeDefined();
  for (const [name, header] of Object.entries((documented?.headers ?? {}) as Json)) {
    const resolved = header.$ref === undefined ? header : document.components.headers[(header.$ref as string).split('/').pop() as string];
    if (resolved.required === true) expect(response.headers.get(name), `${response.status} ${name}`).toBeTruthy();
  }
  const body = await response.text();
  if (documented?.content === undefined) {
    expect(body, `${response.status} has no body`).toBe('');
    return;
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0] as 'application/json' | 'application/xml';
  expect(Object.keys(documented.content)).toContain(type);
  expect(bodyProblems(operation.responses as Json, response.status, type, body)).toEqual([]);
}

describe('the sandbox answers as the document says', () => {
  it('finds what breaks the document (the checks below are not vacuous)', () => {
    const status = document.paths['/sms/v4/mt/{ticketId}/status'].get.responses as Json;
    expect(bodyProblems(status, 200, 'application/json', JSON.stringify({ mtStatus: { ticketId: '44101-0922I-13413-21GDL', code: 4 } }))).toEqual([]);
    expect(bodyProblems(status, 200, 'application/json', JSON.stringify({ mtStatus: { ticketId: '44101-0922I-13413-21GDL', code: '4' } }))).not.toEqual([]);
    expect(bodyProblems(status, 200, 'application/xml', '<mtStatus ticketId="44101-0922I-13413-21GDL" code="4"/>')).not.toEqual([]);
    expect(bodyProblems(status, 404, 'application/json', '{}')).not.toEqual([]);
  });

  for (const format of ['json', 'xml'] as const) {
    const accept = `application/${format}`;
    it(`send, status and lookup in ${format}: successes`, async () => {
      const sent = await send(format, mt());
      const location = sent.headers.get('location') ?? '';
      await conforms(sent, '/sms/v4/mt', 'post', 202);
      await clock.advance(1000);
      const ticketId = location.split('/').pop() ?? '';
      await conforms(await call(`/sms/v4/mt/${ticketId}/status`, { headers: { authorization: auth(), accept } }), '/sms/v4/mt/{ticketId}/status', 'get', 200);
      const multipart = await send(format, mt({ message: { type: 'text', content: 'x'.repeat(400), mlc: 'segment' } }));
      const multiId = multipart.headers.get('location')?.split('/').pop() ?? '';
      await clock.advance(1000);
      await conforms(await call(`/sms/v4/mt/${multiId}/status`, { headers: { authorization: auth(), accept } }), '/sms/v4/mt/{ticketId}/status', 'get', 200);
      await conforms(await call('/sms/v4/preview/14155550100', { headers: { authorization: auth(), accept } }), '/sms/v4/preview/{phoneNumber}', 'get', 200);
    });

    it(`send, status and lookup in ${format}: each class of error`, async () => {
      await conforms(await send(format, mt(), 'sandbox-nobody', accept), '/sms/v4/mt', 'post', 401);
      await conforms(await send(format, mt(), 'blocked', accept), '/sms/v4/mt', 'post', 403);
      await conforms(await send(format, mt({ destination: { address: '12' } }), 'sandbox', accept), '/sms/v4/mt', 'post', 400);
      await conforms(await send(format, mt({ destination: { address: '14155550999' } }), 'demo', accept), '/sms/v4/mt', 'post', 403);
      await conforms(await call('/sms/v4/mt', { method: 'POST', headers: { authorization: auth(), 'content-type': 'text/plain' }, body: 'x' }), '/sms/v4/mt', 'post', 415);
      sandbox.addFault({ operation: 'send', kind: '1010', count: 1 });
      await conforms(await send(format, mt(), 'sandbox', accept), '/sms/v4/mt', 'post', 503);
      sandbox.addFault({ operation: 'send', kind: '1000', count: 1 });
      await conforms(await send(format, mt(), 'sandbox', accept), '/sms/v4/mt', 'post', 500);
      const statusPath = '/sms/v4/mt/{ticketId}/status';
      await conforms(await call('/sms/v4/mt/AAAAA-BBBBB-CCCCC-DDDDD/status', { headers: { authorization: 'Basic eDp5', accept } }), statusPath, 'get', 401);
      for (const [kind, status] of [['1000', 500], ['1010', 503]] as const) {
        sandbox.addFault({ operation: 'status', kind, count: 1 });
        await conforms(await call('/sms/v4/mt/AAAAA-BBBBB-CCCCC-DDDDD/status', { headers: { authorization: auth(), accept } }), statusPath, 'get', status);
      }
      await conforms(await call('/sms/v4/preview/14155550100', { headers: { authorization: auth('blocked'), accept } }), '/sms/v4/preview/{phoneNumber}', 'get', 403);
      sandbox.addFault({ operation: 'lookup', kind: '1010', count: 1 });
      await conforms(await call('/sms/v4/preview/14155550100', { headers: { authorization: auth(), accept } }), '/sms/v4/preview/{phoneNumber}', 'get', 503);
      await conforms(await call('/sms/v4/mt/AAAAA-BBBBB-CCCCC-DDDDD/status', { headers: { authorization: auth(), accept } }), '/sms/v4/mt/{ticketId}/status', 'get', 404);
      await conforms(await call('/sms/v4/mt/AAAAA-BBBBB-CCCCC-DDDDD/status', { headers: { authorization: auth('not-provisioned'), accept } }), '/sms/v4/mt/{ticketId}/status', 'get', 403);
      await conforms(await call('/sms/v4/preview/33612345678', { headers: { authorization: auth(), accept } }), '/sms/v4/preview/{phoneNumber}', 'get', 404);
      await conforms(await call('/sms/v4/preview/1234', { headers: { authorization: auth(), accept } }), '/sms/v4/preview/{phoneNumber}', 'get', 400);
      await conforms(await call('/sms/v4/preview/14155550100', { headers: { authorization: 'Basic eDp5', accept } }), '/sms/v4/preview/{phoneNumber}', 'get', 401);
      sandbox.addFault({ operation: 'lookup', kind: '1000', count: 1 });
      await conforms(await call('/sms/v4/preview/14155550100', { headers: { authorization: auth(), accept } }), '/sms/v4/preview/{phoneNumber}', 'get', 500);
    });
  }

  it('Invoke Service: accepted, and each class of error', async () => {
    const path = '/service/v1/invokeService/{serviceId}';
    const invoke = (account: string, body: string, type = 'application/json'): Promise<Response> =>
      call('/service/v1/invokeService/0a1b', { method: 'POST', headers: { authorization: auth(account), 'content-type': type }, body });
    const valid = JSON.stringify({ endUser: { phoneNumber: 14155550100 } });
    await conforms(await invoke('sandbox', valid), path, 'post', 202);
    await conforms(await invoke('sandbox', '{"endUser":{}}'), path, 'post', 400);
    await conforms(await invoke('sms-only', valid), path, 'post', 403);
    await conforms(await invoke('nobody', valid), path, 'post', 401);
    await conforms(await invoke('sandbox', valid, 'text/plain'), path, 'post', 415);
    await conforms(await invoke('sandbox', JSON.stringify({ endUser: { phoneNumber: 14155550100 }, padding: 'x'.repeat(9000) })), path, 'post', 413);
    await conforms(await call('/service/v1/invokeService/not-hex', { method: 'POST', headers: { authorization: auth(), 'content-type': 'application/json' }, body: valid }), path, 'post', 404);
    sandbox.addFault({ operation: 'invokeService', kind: '1000', count: 1 });
    await conforms(await invoke('sandbox', valid), path, 'post', 500);
  });

  it('another method (405, Allow, 12003) and an unknown path (404, 12006) answer error records of the document', async () => {
    const wrong = await call('/sms/v4/mt', { method: 'PUT', headers: { accept: 'application/json' } });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'POST']);
    expect(bodyProblems({ '405': { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorRecordBody' } } } } }, 405, 'application/json', await wrong.text())).toEqual([]);
    const unknown = await call('/sms/v4/nothing', { headers: { accept: 'application/xml' } });
    expect(unknown.status).toBe(404);
    expect(bodyProblems({ '404': { description: '', content: { 'application/xml': { schema: { $ref: '#/components/schemas/ErrorRecord' } } } } }, 404, 'application/xml', await unknown.text())).toEqual([]);
    expect(document.info.description).toContain('12003');
  });
});

describe('the callbacks the sandbox posts are what the document says', () => {
  it('receipts (single and multipart, JSON and XML) and inbound messages (JSON and XML), with their headers', async () => {
    posted.length = 0;
    const delivery = { receiptRequested: 'final' as const, url: 'http://127.0.0.1:3000/receipts' };
    await send('json', mt({ delivery }));
    await send('xml', mt({ delivery, message: { type: 'text', content: 'y'.repeat(300), mlc: 'segment' } }));
    await clock.advance(2000);
    sandbox.injectInbound({ from: '447700900123', to: '12345', text: 'STOP', url: 'http://127.0.0.1:3000/inbound', format: 'json' });
    sandbox.injectInbound({ from: '447700900123', to: '12345', text: 'z'.repeat(200), url: 'http://127.0.0.1:3000/inbound', format: 'xml' });
    await expect.poll(() => posted.length).toBe(1 + 2 + 1 + 2);
    for (const callback of posted) {
      const webhook = document.webhooks[callback.url.endsWith('/receipts') ? 'deliveryReceipt' : 'inboundMessage'].post as Json;
      for (const parameter of webhook.parameters as Json[]) {
        if (parameter.required === true) expect(callback.headers.get(parameter.name), parameter.name).toBe(parameter.schema.const ?? callback.headers.get(parameter.name));
      }
      const type = (callback.headers.get('content-type') ?? '').split(';')[0] as 'application/json' | 'application/xml';
      const responses = { '200': { description: '', content: webhook.requestBody.content } };
      expect(bodyProblems(responses, 200, type, callback.body), callback.body.slice(0, 200)).toEqual([]);
      // The answer that settles it is one the document lists.
      expect(Object.keys(webhook.responses)).toContain('200');
    }
  });
});
