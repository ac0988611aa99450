/**
 * Captured callbacks, shipped with the kit (`fixtures/callbacks/`): receipts and inbound messages
 * as the service posts them, and the broken or hostile documents a receiver must refuse. The
 * receiver conformance suite posts them; your own tests can too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WireFormat } from '@smsv4/core';
import { postCallback } from '../http/post-callback.js';

/** The captured callbacks of the kit, by file name. */
export const CALLBACK_FIXTURES = [
  'inbound-bad-udh.xml',
  'inbound-published-offset.xml',
  'inbound-ref8-part1.xml',
  'inbound-ref8-part2.xml',
  'inbound-text.json',
  'inbound-utf16-ref16-part1.json',
  'inbound-utf16-ref16-part2.json',
  'receipt-hostile-billion-laughs.xml',
  'receipt-missing-ticket.json',
  'receipt-multipart-part1-delivered.xml',
  'receipt-multipart-part2-expired.xml',
  'receipt-multipart-part3-delivered.xml',
  'receipt-repeated-member.json',
  'receipt-single-delivered.json',
  'receipt-single-delivered.xml',
  'receipt-truncated.json',
  'receipt-unterminated-cdata.xml',
  'status-not-a-callback.xml',
] as const;

/** The name of one captured callback. */
export type CallbackFixtureName = (typeof CALLBACK_FIXTURES)[number];

/** A captured callback: its text and its format (by its extension). Post it with `postCallback`. */
export interface CallbackFixture {
  readonly name: CallbackFixtureName;
  readonly body: string;
  readonly format: WireFormat;
}

let folder: string | undefined;

/** `fixtures/callbacks` of the installed package: above the module, whether it runs from `dist/` or `src/`. */
function fixturesFolder(): string {
  if (folder !== undefined) return folder;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'fixtures', 'callbacks');
    if (existsSync(join(candidate, 'receipt-single-delivered.xml'))) return (folder = candidate);
    if (dirname(dir) === dir) throw new Error('@smsv4/testing: its fixtures/callbacks folder is missing from the installed package');
  }
}

/**
 * One captured callback of the kit.
 *
 * @example
 * const report = await postCallback(`${url}/callbacks`, callbackFixture('receipt-single-delivered.xml'));
 */
export function callbackFixture(name: CallbackFixtureName): CallbackFixture {
  if (!(CALLBACK_FIXTURES as readonly string[]).includes(name)) throw new TypeError(`no captured callback named ${String(name)}; one of: ${CALLBACK_FIXTURES.join(', ')}`);
  return { name, body: readFileSync(join(fixturesFolder(), name), 'utf8'), format: name.endsWith('.json') ? 'json' : 'xml' };
}

/** An answer, read whole. */
export interface CallbackAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** Options of {@link postFixture}. */
export interface PostFixtureOptions {
  /** Extra headers, or headers that replace the service's (`content-type`, `x-api-version`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Default `smsv4-testing`. */
  readonly userAgent?: string;
}

/**
 * Posts a captured callback once, as the service does (`postCallback` without retries), and reads
 * the answer whole; throws when the receiver does not answer at all.
 *
 * @example
 * const answer = await postFixture(`${url}/callbacks`, 'receipt-truncated.json');
 * expect(answer.status).toBe(400);
 */
export async function postFixture(url: string | URL, name: CallbackFixtureName, { headers = {}, userAgent }: PostFixtureOptions = {}): Promise<CallbackAnswer> {
  const fixture = callbackFixture(name);
  const report = await postCallback(url, fixture.body, { format: fixture.format, headers, ...(userAgent === undefined ? {} : { userAgent }) });
  const attempt = report.attempts[0];
  if (attempt?.status === undefined) throw new Error(`no answer from ${String(url)}: ${attempt?.error ?? 'no attempt'}`);
  return { status: attempt.status, headers: new Headers(attempt.headers), body: attempt.body };
}
