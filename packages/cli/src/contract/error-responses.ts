/**
 * The error responses of each operation, from core's catalogue: one response per HTTP status, its
 * description listing every code it carries, one example per code (per rule for 540 and 12002), the
 * bodies written by core's encoders.
 */
import {
  encodeErrorRecord,
  encodeInvokeErrorBody,
  INVOKE_ERRORS,
  INVOKE_INVALID,
  invokeInvalidError,
  LOOKUP_CREDENTIALS_DESCRIPTION,
  MT_INVALID,
  SMS_ERRORS,
  type ErrorEntry,
  type InvokeErrorCode,
  type InvokeInvalidRule,
  type MtInvalidRule,
  type RetryGuidance,
  type SmsErrorCode,
} from '@smsv4/core';
import type { JsonSchema } from './wire-json-schema.js';

/** The SMS operations of the document. */
export type SmsOperation = 'send' | 'status' | 'lookup';

/**
 * Which SMS codes each operation answers with. The catalogue holds the codes; which operation
 * gives which is the spec's tables: the send table, 711 for status, 420 (with its own wording) for
 * lookup and 345 (wire facts) for a number outside the lookup's countries; credentials,
 * provisioning and the temporary errors for all; for lookup 540 (destination address only) when the
 * path segment is not a number of the allowed length.
 */
export const SMS_OPERATION_ERRORS: Readonly<Record<SmsOperation, readonly SmsErrorCode[]>> = Object.freeze({
  send: ['420', '431', '432', '540', '577', '578', '579', '580', '591', '592', '1000', '1010'],
  status: ['420', '431', '432', '711', '1000', '1010'],
  lookup: ['420', '431', '432', '540', '345', '1000', '1010'],
});

/** How a retry guidance reads in a document. */
export function retryText(retry: RetryGuidance): string {
  if (!retry.retryable) return 'not retryable';
  const interval = retry.minIntervalMs >= 60_000 ? `${retry.minIntervalMs / 60_000} min` : `${retry.minIntervalMs / 1000} s`;
  const window = retry.maxWindowMs === undefined ? '' : ` for up to ${retry.maxWindowMs / 3_600_000} h`;
  return `retryable, at least ${interval} apart${window}`;
}

interface Example {
  readonly name: string;
  readonly summary: string;
  readonly code: string | number;
  readonly description: string;
}

const REQUEST_ID_HEADER = { $ref: '#/components/headers/XRequestId' };

/**
 * An example of an XML media type: the element's content as data (what the schema and its `xml`
 * hints describe, so that linters and renderers read it), the exact text on the wire in its
 * description, namespace (`xmlns`) included.
 */
export function xmlExample(summary: string, value: unknown, xml: string): JsonSchema {
  return { summary, description: `On the wire:\n\n\`\`\`xml\n${xml.trim()}\n\`\`\``, value };
}

function smsExamples(operation: SmsOperation, entry: ErrorEntry<SmsErrorCode>): Example[] {
  if (entry.code === '540') {
    const rules = operation === 'lookup' ? (['destinationAddress'] as MtInvalidRule[]) : (Object.keys(MT_INVALID) as MtInvalidRule[]);
    return rules.map((rule) => ({
      name: `540-${rule}`,
      summary: `540 ${MT_INVALID[rule]}`,
      code: '540',
      description: MT_INVALID[rule],
    }));
  }
  const description = operation === 'lookup' && entry.code === '420' ? LOOKUP_CREDENTIALS_DESCRIPTION : entry.description;
  return [{ name: entry.code, summary: `${entry.code} ${description} (${retryText(entry.retry)})`, code: entry.code, description }];
}

function invokeExamples(entry: ErrorEntry<InvokeErrorCode>): Example[] {
  if (entry.code === 12002) {
    return (Object.keys(INVOKE_INVALID) as InvokeInvalidRule[]).map((rule) => {
      const { description } = invokeInvalidError(rule, { scope: 'user', key: 'FAVOURITE_COLOUR' });
      return { name: `12002-${rule}`, summary: `12002 ${description}`, code: 12002, description };
    });
  }
  return [{ name: String(entry.code), summary: `${entry.code} ${entry.description} (${retryText(entry.retry)})`, code: entry.code, description: entry.description }];
}

function groupByStatus<E extends ErrorEntry<string | number>>(entries: readonly E[]): Map<number, E[]> {
  const groups = new Map<number, E[]>();
  for (const entry of entries) groups.set(entry.httpStatus, [...(groups.get(entry.httpStatus) ?? []), entry]);
  return new Map([...groups].sort(([a], [b]) => a - b));
}

function statusDescription(entries: readonly ErrorEntry<string | number>[], operation?: SmsOperation): string {
  const lines = entries.map((entry) => {
    const description = operation === 'lookup' && entry.code === '420' ? LOOKUP_CREDENTIALS_DESCRIPTION : entry.description;
    return `- \`${entry.code}\` ${description}: ${entry.condition} (${retryText(entry.retry)})`;
  });
  return `Rejected; the body is an error record:\n\n${lines.join('\n')}`;
}

/** The error responses of an SMS operation, keyed by HTTP status. */
export function smsErrorResponses(operation: SmsOperation): Record<string, JsonSchema> {
  const entries = SMS_OPERATION_ERRORS[operation].map((code) => SMS_ERRORS[code]);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, group] of groupByStatus(entries)) {
    const examples = group.flatMap((entry) => smsExamples(operation, entry));
    const json: JsonSchema = {};
    const xml: JsonSchema = {};
    for (const example of examples) {
      const record = { code: String(example.code), description: example.description };
      json[example.name] = { summary: example.summary, value: JSON.parse(encodeErrorRecord(record, 'json')) as unknown };
      xml[example.name] = xmlExample(example.summary, record, encodeErrorRecord(record, 'xml'));
    }
    responses[String(status)] = {
      description: statusDescription(group, operation),
      headers: { 'X-Request-Id': REQUEST_ID_HEADER },
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/ErrorRecordBody' }, examples: json },
        'application/xml': { schema: { $ref: '#/components/schemas/ErrorRecord' }, examples: xml },
      },
    };
  }
  return responses;
}

/** Invoke Service codes that cannot come from the documented `POST /service/v1/...` (another method, another version). */
const ELSEWHERE: ReadonlySet<InvokeErrorCode> = new Set([12003, 12004] as const);

/** The error responses of Invoke Service's `POST`, keyed by HTTP status. */
export function invokeErrorResponses(): Record<string, JsonSchema> {
  const entries = (Object.keys(INVOKE_ERRORS) as `${InvokeErrorCode}`[])
    .map((code) => INVOKE_ERRORS[Number(code) as InvokeErrorCode])
    .filter((entry) => !ELSEWHERE.has(entry.code));
  const responses: Record<string, JsonSchema> = {};
  for (const [status, group] of groupByStatus(entries)) {
    const examples: JsonSchema = {};
    for (const example of group.flatMap(invokeExamples)) {
      examples[example.name] = {
        summary: example.summary,
        value: JSON.parse(encodeInvokeErrorBody({ code: example.code as number, description: example.description })) as unknown,
      };
    }
    responses[String(status)] = {
      description: statusDescription(group),
      headers: { 'X-Request-Id': REQUEST_ID_HEADER },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/InvokeErrorBodyBody' }, examples } },
    };
  }
  return responses;
}
