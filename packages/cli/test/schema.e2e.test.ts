// `smsv4 schema` end to end: the generated documents, compiled by Ajv (draft 2020-12, strict), hold
// every fixture of the core's tests as the core decoders do.
import {
  decodeDeliveryReceipt,
  decodeErrorRecord,
  decodeInvokeServiceRequest,
  decodeMobileOriginate,
  decodeMtRequest,
  decodeMtStatus,
  decodePreview,
  encodeDeliveryReceipt,
  encodeErrorRecord,
  encodeMobileOriginate,
  encodeMtRequest,
  encodeMtStatus,
  encodePreview,
} from '@smsv4/core';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_NAMES, validatePayload, type ResourceName } from '../src/index.js';
import { bytesOf, cliFixture, coreFixture, coreName, filesUnder } from './fixtures.js';
import { smsv4 } from './helpers.js';

const validators = new Map<ResourceName, ValidateFunction>();
let directory = '';

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'smsv4-schemas-'));
  const run = await smsv4(['schema', '--out', directory]);
  expect(run.code).toBe(0);
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const name of RESOURCE_NAMES) {
    const schema = JSON.parse(readFileSync(join(directory, `${name}.schema.json`), 'utf8')) as object;
    validators.set(name, ajv.compile(schema));
  }
});

/**
 * Fixtures on which a JSON Schema validator cannot agree with the service, and why: a JSON Schema
 * sees the value `JSON.parse` returns, not the bytes.
 */
const BEYOND_JSON_SCHEMA: Readonly<Record<string, string>> = {
  'mt-request/hostile/invalid-utf8.json': 'invalid UTF-8 is replaced before any validator sees a value',
  'mt-request/malformed/duplicate-depth-1.json': 'JSON.parse keeps the last of repeated members',
  'mt-request/malformed/duplicate-depth-2.json': 'JSON.parse keeps the last of repeated members',
  'mt-request/malformed/duplicate-depth-3.json': 'JSON.parse keeps the last of repeated members',
  'invoke-service/valid/escaped-names.json': 'a 16-digit phone number above 2^53 is rounded by JSON.parse (9999999999999999 becomes 10^16)',
};

const check = (resource: ResourceName, value: unknown): { ok: boolean; errors: string } => {
  const validate = validators.get(resource) as ValidateFunction;
  const ok = validate(value);
  return { ok, errors: JSON.stringify(validate.errors) };
};

describe('smsv4 schema --out', () => {
  it('writes one draft 2020-12 document per resource, and prints their paths', async () => {
    expect(readdirSync(directory).sort()).toEqual(RESOURCE_NAMES.map((name) => `${name}.schema.json`).sort());
    const document = JSON.parse(readFileSync(join(directory, 'mt-request.schema.json'), 'utf8')) as Record<string, unknown>;
    expect(document.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(document.required).toEqual(['mobileTerminate']);
    const printed = await smsv4(['schema', 'mt-request']);
    expect(JSON.parse(printed.stdout)).toEqual(document);
  });

  it('holds every JSON fixture of the core tests as the core decoder does', () => {
    const files = filesUnder(CORE_FIXTURE_ROOT).filter((path) => path.endsWith('.json') && !path.includes('/expected/'));
    let checked = 0;
    for (const file of files) {
      const name = coreName(file);
      const verdict = validatePayload(bytesOf(file), file, name.startsWith('invoke-service/') ? { resource: 'invoke-service-request' } : {});
      if (verdict.resource === undefined) continue; // no root names a resource: nothing to validate against
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        expect(verdict.valid, name).toBe(false); // unparseable: invalid for both
        continue;
      }
      const { ok, errors } = check(verdict.resource, value);
      if (Object.hasOwn(BEYOND_JSON_SCHEMA, name)) expect(ok, name).not.toBe(verdict.valid);
      else expect(ok, `${name}: ${errors}`).toBe(verdict.valid);
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('holds the JSON form of every valid XML fixture of the core tests', () => {
    const encoders: Partial<Record<ResourceName, (body: Uint8Array) => string | undefined>> = {
      'mt-request': (body) => {
        const r = decodeMtRequest(body, 'xml');
        return r.ok ? encodeMtRequest(r.value, 'json') : undefined;
      },
      'mt-status': (body) => {
        const r = decodeMtStatus(body, 'xml');
        return r.ok ? encodeMtStatus(r.value, 'json') : undefined;
      },
      'delivery-receipt': (body) => {
        const r = decodeDeliveryReceipt(body, 'xml');
        return r.ok ? encodeDeliveryReceipt(r.value, 'json') : undefined;
      },
      'mobile-originate': (body) => {
        const r = decodeMobileOriginate(body, 'xml');
        return r.ok ? encodeMobileOriginate(r.value, 'json') : undefined;
      },
      preview: (body) => {
        const r = decodePreview(body, 'xml');
        return r.ok ? encodePreview(r.value, 'json') : undefined;
      },
      'error-record': (body) => {
        const r = decodeErrorRecord(body, 'xml');
        return r.ok ? encodeErrorRecord(r.value, 'json') : undefined;
      },
    };
    let checked = 0;
    for (const file of filesUnder(CORE_FIXTURE_ROOT).filter((path) => path.endsWith('.xml'))) {
      const verdict = validatePayload(bytesOf(file), file);
      if (!verdict.valid || verdict.resource === undefined) continue;
      const json = encoders[verdict.resource]?.(bytesOf(file));
      expect(json, coreName(file)).toBeDefined();
      const { ok, errors } = check(verdict.resource, JSON.parse(json as string));
      expect(ok, `${coreName(file)}: ${errors}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('holds the valid Invoke Service fixtures and refuses the CLI fixtures the service refuses', () => {
    for (const file of filesUnder(coreFixture('invoke-service/valid'))) {
      const decoded = decodeInvokeServiceRequest(bytesOf(file));
      if (Object.hasOwn(BEYOND_JSON_SCHEMA, coreName(file))) continue;
      expect(decoded.ok).toBe(true);
      expect(check('invoke-service-request', JSON.parse(readFileSync(file, 'utf8'))).ok, coreName(file)).toBe(true);
    }
    const refused: [ResourceName, string][] = [
      ['mt-request', 'payloads/mt-content-empty.json'],
      ['mt-request', 'payloads/mt-bad-charset.json'],
      ['mt-status', 'payloads/mt-status-bad-code.json'],
      ['preview', 'payloads/preview-missing-operator.json'],
    ];
    for (const [resource, path] of refused) {
      expect(validatePayload(bytesOf(cliFixture(path)), path).valid).toBe(false);
      expect(check(resource, JSON.parse(readFileSync(cliFixture(path), 'utf8'))).ok, path).toBe(false);
    }
  });

  it('accepts the alternative forms the decoders accept, and nothing looser', () => {
    const status = (segments: unknown, code: unknown = 4): unknown => ({ mtStatus: { ticketId: '44101-0922I-13413-21GDL', code, segments } });
    const segment = { segmentNumber: 1, code: '4' };
    expect(check('mt-status', status([segment])).ok).toBe(true);
    expect(check('mt-status', status({ segment: [segment] })).ok).toBe(true);
    expect(check('mt-status', status({ segment })).ok).toBe(true);
    expect(check('mt-status', status(segment)).ok).toBe(true);
    expect(check('mt-status', status([])).ok).toBe(false);
    expect(check('mt-status', status([{ segmentNumber: '0', code: 4 }])).ok).toBe(false);
    expect(check('mt-status', status([segment], '4')).ok).toBe(true);
    expect(check('mt-status', status([segment], '-4')).ok).toBe(false);
    expect(check('preview', { preview: { destination: { phoneNumber: '1' }, operator: { mobileOperatorId: 1 } } }).ok).toBe(true);
    expect(check('preview', { preview: { destination: { phoneNumber: '1' } } }).ok).toBe(false);
    expect(check('error-record', { error: { code: 540, description: 'x' } }).ok).toBe(true);
    expect(check('error-record', { error: { code: '54O', description: 'x' } }).ok).toBe(false);
  });
});

const CORE_FIXTURE_ROOT = coreFixture('');
