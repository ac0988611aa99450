// `smsv4 openapi` end to end: the document passes @readme/openapi-parser (OpenAPI 3.1), carries every
// code of the core catalogue, and its JSON examples hold against its own schemas.
import {
  decodeDeliveryReceipt,
  decodeErrorRecord,
  decodeMobileOriginate,
  decodeMtRequest,
  decodeMtStatus,
  decodePreview,
  INVOKE_ERRORS,
  INVOKE_INVALID,
  LOOKUP_CREDENTIALS_DESCRIPTION,
  MT_INVALID,
  SMS_ERRORS,
  XML_NAMESPACES,
  type InvokeErrorCode,
} from '@smsv4/core';
import { compileErrors, validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { SMS_OPERATION_ERRORS } from '../src/index.js';
import { coreFixture } from './fixtures.js';
import { smsv4 } from './helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let document: Json = {};
let directory = '';

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'smsv4-openapi-'));
  const run = await smsv4(['openapi', '--out', join(directory, 'smsv4.openapi.json')]);
  expect(run.code).toBe(0);
  document = JSON.parse(readFileSync(join(directory, 'smsv4.openapi.json'), 'utf8')) as Json;
});

const operation = (path: string, method: string): Json => document.paths[path][method] as Json;

describe('smsv4 openapi', () => {
  it('is a valid OpenAPI 3.1 document for @readme/openapi-parser, in JSON and in YAML', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    const yaml = await smsv4(['openapi', '--out', join(directory, 'smsv4.openapi.yaml')]);
    expect(yaml.code).toBe(0);
    const fromYaml = parseYaml(readFileSync(join(directory, 'smsv4.openapi.yaml'), 'utf8')) as Json;
    expect(fromYaml).toEqual(document);
    const printed = await smsv4(['openapi', '--format', 'yaml']);
    expect(parseYaml(printed.stdout)).toEqual(document);
  });

  it('has every operation, in both formats where the service has both', () => {
    const send = operation('/sms/v4/mt', 'post');
    expect(Object.keys(send.requestBody.content)).toEqual(['application/json', 'application/xml']);
    expect(send.responses['202'].headers).toHaveProperty('Location');
    for (const [path, method] of [['/sms/v4/mt/{ticketId}/status', 'get'], ['/sms/v4/preview/{phoneNumber}', 'get']] as const) {
      expect(Object.keys(operation(path, method).responses['200'].content).sort()).toEqual(['application/json', 'application/xml']);
    }
    const invoke = operation('/service/v1/invokeService/{serviceId}', 'post');
    expect(Object.keys(invoke.requestBody.content)).toEqual(['application/json']);
    expect(invoke.security).toEqual([{ basicAuth: [] }, { mutualTLS: [] }]);
    expect(document.paths['/sms/v4/mt'].servers[0].url).toBe('https://smsc.openmarket.com');
  });

  it('describes the XML layout with xml hints: the root, its namespace, attributes, the content element, wrapped segments', () => {
    const { schemas } = document.components;
    expect(schemas.MtRequest.xml).toEqual({ name: 'mobileTerminate', namespace: XML_NAMESPACES.mt });
    expect(schemas.MtRequest.properties.interaction.xml).toEqual({ attribute: true });
    expect(schemas.MtRequest.properties.message.properties.type.xml).toEqual({ attribute: true });
    expect(schemas.MtRequest.properties.message.properties.content.xml).toBeUndefined();
    expect(schemas.MobileOriginate.xml.namespace).toBe(XML_NAMESPACES.mo);
    const segments = schemas.MtStatus.properties.segments;
    expect(segments.xml).toEqual({ wrapped: true });
    expect(segments.items.xml).toEqual({ name: 'segment' });
    expect(schemas.InvokeServiceRequest.xml).toBeUndefined();
    // One canonical type per member, one spelling: nothing reads "integer or string" to a client generator.
    expect(JSON.stringify(schemas)).not.toContain('anyOf');
    expect(Object.keys(schemas.Preview.properties.destination.properties)).not.toContain('alpha2code');
    expect(schemas.Preview.description).toContain('`alpha2code` for `alpha2Code`');
  });

  it('lists every code of the catalogue, with its description and HTTP status, under each operation', () => {
    const text = JSON.stringify(document);
    for (const [name, codes] of Object.entries(SMS_OPERATION_ERRORS)) {
      const op = name === 'send' ? operation('/sms/v4/mt', 'post') : name === 'status' ? operation('/sms/v4/mt/{ticketId}/status', 'get') : operation('/sms/v4/preview/{phoneNumber}', 'get');
      for (const code of codes) {
        const entry = SMS_ERRORS[code];
        const response = op.responses[String(entry.httpStatus)];
        expect(response, `${name} ${code}`).toBeDefined();
        const description = name === 'lookup' && code === '420' ? LOOKUP_CREDENTIALS_DESCRIPTION : entry.description;
        expect(response.description, `${name} ${code}`).toContain(`\`${code}\` ${description}`);
      }
    }
    for (const description of Object.values(MT_INVALID)) expect(text).toContain(JSON.stringify(description).slice(1, -1));
    const invoke = operation('/service/v1/invokeService/{serviceId}', 'post');
    for (const code of Object.keys(INVOKE_ERRORS).map(Number) as InvokeErrorCode[]) {
      const entry = INVOKE_ERRORS[code];
      // Another method (12003) or another version (12004) is not this operation: the document's description says so.
      if (code === 12003 || code === 12004) {
        expect(JSON.stringify(invoke.responses)).not.toContain(`\`${code}\``);
        expect(document.info.description).toContain(String(code));
        continue;
      }
      expect(invoke.responses[String(entry.httpStatus)].description).toContain(`\`${code}\` ${entry.description}`);
    }
    const examples = invoke.responses['400'].content['application/json'].examples as Json;
    expect(Object.keys(examples).filter((key) => key.startsWith('12002-'))).toHaveLength(Object.keys(INVOKE_INVALID).length);
  });

  it('has the delivery receipts and inbound messages as webhooks in XML and JSON', () => {
    for (const name of ['deliveryReceipt', 'inboundMessage']) {
      const post = document.webhooks[name].post as Json;
      expect(Object.keys(post.requestBody.content).sort()).toEqual(['application/json', 'application/xml']);
      expect(post.parameters[0]).toMatchObject({ name: 'X-API-Version', in: 'header', required: true });
      expect(post.responses).toHaveProperty('200');
    }
    expect(document.webhooks.deliveryReceipt.post.description).toContain('24 hours');
    expect(document.webhooks.inboundMessage.post.description).toContain('3 days');
  });

  it('has JSON and XML examples (operations and webhooks) that hold against their own schemas under strict Ajv, and schemas that hold real payloads', () => {
    type Read = (text: string) => { ok: true; value: unknown } | { ok: false; error: unknown };
    const XML_READERS: Record<string, Read> = {
      MtRequest: (text) => decodeMtRequest(text, 'xml'),
      MtStatus: (text) => decodeMtStatus(text, 'xml'),
      DeliveryReceipt: (text) => decodeDeliveryReceipt(text, 'xml'),
      MobileOriginate: (text) => decodeMobileOriginate(text, 'xml'),
      Preview: (text) => decodePreview(text, 'xml'),
      ErrorRecord: (text) => decodeErrorRecord(text, 'xml'),
    };
    /** The members of `value` its schema (at `ref`) does not name, as paths. */
    const unknownMembers = (ref: string, value: unknown, path = ''): string[] => {
      let schema = document.components.schemas[ref.split('/').pop() as string] as Json;
      const resolve = (s: Json): Json => (s.$ref === undefined ? s : (document.components.schemas[(s.$ref as string).split('/').pop() as string] as Json));
      schema = resolve(schema);
      const walk = (s: Json, v: unknown, at: string): string[] => {
        s = resolve(s);
        const branches = (s.anyOf ?? s.oneOf ?? s.allOf) as Json[] | undefined;
        if (branches !== undefined) {
          const found = branches.map((b) => walk(b, v, at));
          return found.find((f) => f.length === 0) ?? found[0] ?? [];
        }
        if (Array.isArray(v)) return v.flatMap((item, i) => (s.items === undefined ? [] : walk(s.items as Json, item, `${at}/${i}`)));
        if (v === null || typeof v !== 'object') return [];
        const properties = (s.properties ?? {}) as Json;
        return Object.entries(v).flatMap(([key, inner]) => (key in properties ? walk(properties[key] as Json, inner, `${at}/${key}`) : [`${at}/${key}`]));
      };
      return walk(schema, value, path);
    };
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    // OpenAPI's own keywords inside schemas: annotations for Ajv.
    ajv.addVocabulary(['xml', 'components']);
    addFormats(ajv);
    ajv.addSchema({ $id: 'urn:smsv4:openapi', components: document.components });
    const checkRef = (ref: string, value: unknown): boolean => {
      const validate = ajv.getSchema(`urn:smsv4:openapi${ref}`);
      if (validate === undefined) throw new Error(`no schema at ${ref}`);
      return validate(value) as boolean;
    };
    let examples = 0;
    const visit = (content: Json | undefined): void => {
      for (const type of ['application/json', 'application/xml']) {
        const media = content?.[type] as Json | undefined;
        if (media === undefined) continue;
        const ref = media.schema.$ref as string;
        if (media.example !== undefined) {
          expect(checkRef(ref, media.example), ref).toBe(true);
          examples++;
        }
        for (const [name, example] of Object.entries((media.examples ?? {}) as Json)) {
          expect(checkRef(ref, (example as Json).value), `${ref} ${name}`).toBe(true);
          if (type === 'application/xml') {
            // The text on the wire, namespace included, is what core writes for the same value.
            const text = /```xml\n([\s\S]*)\n```/.exec((example as Json).description as string)?.[1] ?? '';
            const root = (ref.split('/').pop() as string);
            const namespace = document.components.schemas[root]?.xml?.namespace as string | undefined;
            if (namespace !== undefined) expect(text, `${ref} ${name}`).toContain(`xmlns="${namespace}"`);
            expect(text, `${ref} ${name}`).toMatch(/^<\?xml|^</);
            // Core reads that text as the example's value: the XML and the value say the same.
            const read = XML_READERS[root];
            expect(read, `a reader for ${root}`).toBeDefined();
            const decoded = read?.(text);
            expect(decoded?.ok ? decoded.value : decoded, `${ref} ${name}`).toEqual((example as Json).value);
          }
          // One spelling per member: every member of an example is a property of its schema.
          expect(unknownMembers(ref, (example as Json).value), `${ref} ${name}`).toEqual([]);
          examples++;
        }
      }
    };
    const webhooks = Object.values(document.webhooks as Json).map((item) => ({ post: (item as Json).post }));
    for (const item of [...Object.values(document.paths as Json), ...webhooks]) {
      for (const method of ['get', 'post']) {
        const op = (item as Json)[method] as Json | undefined;
        if (op === undefined) continue;
        visit(op.requestBody?.content as Json | undefined);
        for (const response of Object.values(op.responses as Json)) visit((response as Json).content as Json | undefined);
      }
    }
    expect(examples).toBeGreaterThan(120);
    const receipt = JSON.parse(readFileSync(coreFixture('delivery-receipt/single-delivered.json'), 'utf8')) as unknown;
    expect(checkRef('#/components/schemas/DeliveryReceiptBody', receipt)).toBe(true);
    const status = JSON.parse(readFileSync(coreFixture('mt-status/multipart-partial-failure.json'), 'utf8')) as unknown;
    expect(checkRef('#/components/schemas/MtStatusBody', status)).toBe(true);
    expect(checkRef('#/components/schemas/MtStatusBody', { mtStatus: { code: 4 } })).toBe(false);
  });

  it('lists the sandbox URL it is given', async () => {
    const run = await smsv4(['openapi', '--sandbox-url', 'http://127.0.0.1:5999']);
    const printed = JSON.parse(run.stdout) as Json;
    expect(printed.servers).toEqual([{ url: 'http://127.0.0.1:5999', description: 'smsv4 sandbox (`smsv4 sandbox`)' }]);
  });
});
