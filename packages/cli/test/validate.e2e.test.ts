// `smsv4 validate` end to end: the built binary as a subprocess, on the core's real payload files
// and the CLI's own, each verdict compared with what the core decoder (the service's logic) says.
import {
  decodeDeliveryReceipt,
  decodeErrorRecord,
  decodeInvokeErrorBody,
  decodeInvokeServiceRequest,
  decodeMobileOriginate,
  decodeMtRequest,
  decodeMtStatus,
  decodePreview,
  MT_INVALID,
  INVOKE_INVALID,
  INVOKE_ERRORS,
  type WireFormat,
} from '@smsv4/core';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ValidationResult } from '../src/index.js';
import { bytesOf, cliFixture, coreFixture, coreName, filesUnder } from './fixtures.js';
import { smsv4 } from './helpers.js';

interface Report {
  readonly valid: boolean;
  readonly summary: { files: number; valid: number; invalid: number };
  readonly results: ValidationResult[];
}

const parse = (stdout: string): Report => JSON.parse(stdout) as Report;

/** What the core decoder of a resource says about a body: `undefined` when valid, else code and description. */
function coreVerdict(resource: string, body: Uint8Array, format: WireFormat): { code: string | number; description: string } | undefined {
  const decoded = (() => {
    switch (resource) {
      case 'mt-request':
        return decodeMtRequest(body, format);
      case 'invoke-service-request':
        return decodeInvokeServiceRequest(body);
      case 'mt-status':
        return decodeMtStatus(body, format);
      case 'delivery-receipt':
        return decodeDeliveryReceipt(body, format);
      case 'mobile-originate':
        return decodeMobileOriginate(body, format);
      case 'preview':
        return decodePreview(body, format);
      case 'error-record':
        return decodeErrorRecord(body, format);
      case 'invoke-error':
        return decodeInvokeErrorBody(body);
      default:
        throw new Error(`no decoder for ${resource}`);
    }
  })();
  return decoded.ok ? undefined : { code: decoded.error.code, description: decoded.error.description };
}

const payloadFiles = (folder: string): string[] =>
  filesUnder(coreFixture(folder)).filter((path) => /\.(json|xml)$/.test(path) && !path.includes('/expected/'));

describe('smsv4 validate: MT requests get the exact 540 answer', () => {
  const files = payloadFiles('mt-request');

  it('gives every core MT fixture the verdict of decodeMtRequest, code and description', async () => {
    const run = await smsv4(['validate', '--json', '--resource', 'mt-request', ...files]);
    const report = parse(run.stdout);
    expect(report.results).toHaveLength(files.length);
    for (const [index, file] of files.entries()) {
      const result = report.results[index] as ValidationResult;
      const format = file.endsWith('.xml') ? 'xml' : 'json';
      expect(result.format, coreName(file)).toBe(format);
      const expected = coreVerdict('mt-request', bytesOf(file), format);
      expect(result.valid, coreName(file)).toBe(expected === undefined);
      if (expected !== undefined) {
        expect(result.error?.code, coreName(file)).toBe('540');
        expect(result.error?.description, coreName(file)).toBe(expected.description);
        expect(Object.values(MT_INVALID), coreName(file)).toContain(result.error?.description);
      }
    }
    expect(report.summary.invalid).toBeGreaterThan(10);
    expect(run.code).toBe(1);
  });

  it('accepts every valid MT fixture, JSON and XML, telling the resource from the root (exit 0)', async () => {
    const run = await smsv4(['validate', coreFixture('mt-request/valid/json'), coreFixture('mt-request/valid/xml')]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n').filter((line) => line.includes('valid'));
    expect(lines.filter((line) => line.startsWith('✔ valid'))).toHaveLength(payloadFiles('mt-request/valid').length);
    expect(run.stdout).toContain('(mt-request, XML)');
    expect(run.stdout).toMatch(/\d+ payloads: \d+ valid, 0 invalid/);
    expect(run.stderr).toBe('');
  });

  it('prints the rule broken for the CLI fixtures: empty content, wapPush without url, unknown charset', async () => {
    const run = await smsv4(['validate', cliFixture('payloads/mt-content-empty.json'), cliFixture('payloads/mt-wappush-no-url.xml'), cliFixture('payloads/mt-bad-charset.json')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`540 ${MT_INVALID.contentEmpty}`);
    expect(run.stdout).toContain(`540 ${MT_INVALID.wapPushUrl}`);
    expect(run.stdout).toContain(`540 ${MT_INVALID.charset}`);
    expect(run.stdout).toContain('3 payloads: 0 valid, 3 invalid');
  });

  it('reads standard input with -, and a file without extension by its first character', async () => {
    const xml = readFileSync(coreFixture('mt-request/valid/xml/text.xml'));
    const stdin = await smsv4(['validate', '-', '--json'], { input: xml });
    expect(stdin.code).toBe(0);
    expect(parse(stdin.stdout).results[0]).toEqual({ source: '-', resource: 'mt-request', format: 'xml', valid: true });
    const sniffed = await smsv4(['validate', '--json', cliFixture('payloads/mt-request.body')]);
    expect(parse(sniffed.stdout).results[0]).toMatchObject({ resource: 'mt-request', format: 'xml', valid: true });
  });

  it('--input-format overrides the extension: an XML body read as JSON is invalid JSON, located', async () => {
    const run = await smsv4(['validate', '--json', '--input-format', 'json', coreFixture('mt-request/valid/xml/text.xml')]);
    expect(run.code).toBe(1);
    // Nothing tells the resource of unparseable JSON but --resource.
    expect(parse(run.stdout).results[0]?.error?.code).toBe('unknown-resource');
    const named = await smsv4(['validate', '--json', '--input-format', 'json', '--resource', 'mt-request', coreFixture('mt-request/valid/xml/text.xml')]);
    expect(parse(named.stdout).results[0]?.error).toEqual({ code: '540', description: MT_INVALID.invalidJson, rule: 'invalidJson', line: 1, column: 1, syntax: 'unexpected character' });
  });
});

describe('smsv4 validate: Invoke Service requests get the exact 12002 / 12007 answer', () => {
  const files = filesUnder(coreFixture('invoke-service'));

  it('gives every core Invoke Service fixture (invalid UTF-8 included) the verdict of decodeInvokeServiceRequest', async () => {
    const run = await smsv4(['validate', '--json', '--resource', 'invoke-service-request', '--input-format', 'json', ...files]);
    const report = parse(run.stdout);
    for (const [index, file] of files.entries()) {
      const result = report.results[index] as ValidationResult;
      const expected = coreVerdict('invoke-service-request', bytesOf(file), 'json');
      expect(result.valid, coreName(file)).toBe(expected === undefined);
      if (expected !== undefined) expect(result.error, coreName(file)).toEqual(expected);
    }
    expect(report.results.some((result) => result.error?.description === INVOKE_INVALID.encoding)).toBe(true);
    expect(run.code).toBe(1);
  });

  it('answers 12007 over 8000 bytes and applies the account reserved words given by flag', async () => {
    const tooLarge = await smsv4(['validate', '--json', cliFixture('payloads/invoke-too-large.json')]);
    expect(parse(tooLarge.stdout).results[0]?.error).toEqual({ code: 12007, description: INVOKE_ERRORS[12007].description });
    const reserved = cliFixture('payloads/invoke-reserved-key.json');
    expect((await smsv4(['validate', reserved])).code).toBe(0);
    const withWords = await smsv4(['validate', '--json', '--reserved-words', 'colour,size', reserved]);
    expect(withWords.code).toBe(1);
    expect(parse(withWords.stdout).results[0]?.error).toEqual({ code: 12002, description: 'Invalid JSON in the payload - key "COLOUR" in scope "user" is a reserved word' });
  });

  it('says the Invoke Service request has no XML form', async () => {
    const run = await smsv4(['validate', '--json', '--resource', 'invoke-service-request', coreFixture('mt-request/valid/xml/text.xml')]);
    expect(parse(run.stdout).results[0]?.error?.code).toBe('unsupported-format');
  });
});

describe('smsv4 validate: the other resources get their decoder\'s payload error', () => {
  const folders = ['mt-status', 'delivery-receipt', 'mobile-originate', 'preview', 'error-record', 'webhooks'];
  const files = folders.flatMap(payloadFiles);

  it('tells each resource from its root and agrees with its core decoder on every fixture', async () => {
    const run = await smsv4(['validate', '--json', ...files]);
    const report = parse(run.stdout);
    expect(report.results).toHaveLength(files.length);
    for (const [index, file] of files.entries()) {
      const result = report.results[index] as ValidationResult;
      expect(result.resource, coreName(file)).toBeDefined();
      const expected = coreVerdict(result.resource as string, bytesOf(file), result.format as WireFormat);
      expect(result.valid, coreName(file)).toBe(expected === undefined);
      if (expected !== undefined) expect({ code: result.error?.code, description: result.error?.description }, coreName(file)).toEqual(expected);
    }
    const byName = (name: string): ValidationResult | undefined => report.results.find((result) => result.source.endsWith(name));
    expect(byName('mt-status/not-found-error.xml')?.resource).toBe('error-record');
    expect(byName('error-record/invoke-12002.json')?.resource).toBe('invoke-error');
    expect(byName('error-record/420-numeric-code.json')?.resource).toBe('error-record');
    expect(byName('webhooks/receipt-missing-ticket.json')?.error).toMatchObject({ code: 'missing-member', path: 'deliveryReceipt.mtStatus.ticketId' });
    expect(byName('delivery-receipt/hostile-billion-laughs.xml')?.error?.code).toBe('invalid-xml');
  });

  it('names the member at fault in the CLI fixtures', async () => {
    const run = await smsv4([
      'validate',
      cliFixture('payloads/mt-status-bad-code.json'),
      cliFixture('payloads/receipt-not-final.xml'),
      cliFixture('payloads/preview-missing-operator.json'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('invalid-member Member mtStatus.code must be a non-negative integer at mtStatus.code');
    expect(run.stdout).toContain('invalid-member Member deliveryReceipt.type must be "final"');
    expect(run.stdout).toContain('missing-member Required member preview.mobileOperator is missing');
  });
});

describe('smsv4 validate: input, output and exit status', () => {
  it('validates a directory recursively; --quiet prints only the invalid ones', async () => {
    const run = await smsv4(['validate', '--quiet', cliFixture('payloads')]);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('✔ valid');
    expect(run.stdout).toContain('unknown-root.json');
    expect(run.stdout).toContain('unknown-resource');
    // mt-request.body has no .json or .xml extension: not taken from the directory.
    expect(run.stdout).not.toContain('mt-request.body');
  });

  it('reports a file it cannot read as unreadable, and a directory without payloads, as bad input (exit 2)', async () => {
    const missing = await smsv4(['validate', '--json', cliFixture('payloads/does-not-exist.json')]);
    expect(missing.code).toBe(2);
    expect(parse(missing.stdout).results[0]?.error?.code).toBe('unreadable');
    const noFiles = await smsv4(['validate', mkdtempSync(join(tmpdir(), 'smsv4-empty-'))]);
    expect(noFiles.code).toBe(2);
    expect(noFiles.stderr).toContain('no .json, .xml, .ndjson or .jsonl file');
  });

  it('refuses an unknown --resource or --format with exit status 2 and the choices', async () => {
    const run = await smsv4(['validate', '--resource', 'mtRequest', 'x.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Allowed choices are mt-request, invoke-service-request');
    expect((await smsv4(['validate'])).code).toBe(2);
  });

  it('shows progress on standard error with --progress, never on a pipe by default', async () => {
    const files = payloadFiles('mt-request/valid/json').slice(0, 3);
    const forced = await smsv4(['validate', '--progress', ...files]);
    expect(forced.stderr).toContain('validated 3/3');
    const piped = await smsv4(['validate', ...files]);
    expect(piped.stderr).toBe('');
  });

  it('colours only when asked: FORCE_COLOR colours a pipe, NO_COLOR and --no-color do not', async () => {
    const file = coreFixture('mt-request/valid/json/text.json');
    const plain = await smsv4(['validate', file]);
    expect(plain.stdout).not.toContain('\u001b[');
    const forced = await smsv4(['validate', file], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\u001b[32m');
    const flagged = await smsv4(['--no-color', 'validate', file], { env: { FORCE_COLOR: '1' } });
    expect(flagged.stdout).not.toContain('\u001b[');
    const noColor = await smsv4(['validate', file], { env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b[');
  });
});
