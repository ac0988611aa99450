/**
 * Pure helpers of the dashboard's browser script. The page embeds each of these functions in its
 * inline script by source text (`Function.prototype.toString`), so every function here must be
 * self-contained: it may call the other functions of this file, but nothing imported (types
 * only), no module state and no DOM. They are tested under Node like any other code.
 */
import type { Explanation } from '@smsv4/core';
import type { Fault } from '../engine/faults.js';
import type { Scenario } from '../engine/scenarios.js';
import type { SandboxMetricsView } from '../state/metrics.js';

/** One event read from a `text/event-stream` body. */
export interface SseEvent {
  /** The `event:` field (`message` when the block has none). */
  readonly event: string;
  /** The `data:` lines, joined with `\n`. */
  readonly data: string;
}

/**
 * Splits the text received so far from an event stream into complete events and the unfinished
 * rest (to be prefixed to the next chunk). Comment lines (`: ping`) and blocks without data are
 * skipped, as the EventSource algorithm does; CRLF, CR and LF line ends are all accepted (a CR
 * that ends the buffer waits for the next chunk, which tells whether it is half of a CRLF).
 */
export function parseSseBuffer(buffer: string): { events: SseEvent[]; rest: string } {
  // A lone trailing CR may be the first half of a CRLF split across chunks: keep it for later.
  const held = buffer.endsWith('\r') ? '\r' : '';
  const text = (held ? buffer.slice(0, -1) : buffer).replace(/\r\n?/g, '\n');
  const events: SseEvent[] = [];
  let start = 0;
  let end = text.indexOf('\n\n', start);
  while (end !== -1) {
    let event = 'message';
    const data: string[] = [];
    for (const line of text.slice(start, end).split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
    start = end + 2;
    end = text.indexOf('\n\n', start);
  }
  return { events, rest: text.slice(start) + held };
}

/**
 * The base URL of the admin API for the page at `pageUrl`: the page's own directory, so the
 * dashboard works behind any origin or path prefix (`https://host/x/__sandbox/` → `.../__sandbox/api/`).
 */
export function adminApiBase(pageUrl: string): string {
  const url = new URL(pageUrl);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return new URL('api/', url).href;
}

/**
 * The base URL of the SMS API served beside the dashboard: the page URL without its `/__sandbox`
 * segment and what follows (`http://127.0.0.1:4010/__sandbox/` → `http://127.0.0.1:4010`).
 */
export function serviceBase(pageUrl: string): string {
  const url = new URL(pageUrl);
  const at = url.pathname.lastIndexOf('/__sandbox');
  const path = at === -1 ? url.pathname.replace(/\/[^/]*$/, '') : url.pathname.slice(0, at);
  return url.origin + path;
}

/** The time of day of an ISO 8601 timestamp (`2025-01-02T03:04:05.678Z` → `03:04:05.678`); other text unchanged. */
export function formatClock(iso: string | undefined): string {
  if (typeof iso !== 'string') return '';
  const match = /T(\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?)/.exec(iso);
  return match?.[1] ?? iso;
}

/** Date and time of an ISO 8601 timestamp for headings (`2025-01-02 03:04:05 UTC`); other text unchanged. */
export function formatDateTime(iso: string | undefined): string {
  if (typeof iso !== 'string') return '';
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(iso);
  if (!match) return iso;
  const zone = match[3] === undefined || match[3] === 'Z' ? 'UTC' : match[3];
  return `${match[1]} ${match[2]} ${zone}`;
}

/** A duration in milliseconds for people (`850 ms`, `1.2 s`, `3 min 20 s`, `2 h 5 min`). */
export function formatDuration(ms: number | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.round(ms / 100) / 10).toString()} s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) {
    const seconds = totalSeconds % 60;
    return `${Math.floor(totalSeconds / 60)} min${seconds ? ` ${seconds} s` : ''}`;
  }
  const totalMinutes = Math.round(ms / 60_000);
  const minutes = totalMinutes % 60;
  return `${Math.floor(totalMinutes / 60)} h${minutes ? ` ${minutes} min` : ''}`;
}

/** `text` cut to `max` characters (code points) with an ellipsis when longer. */
export function truncate(text: string | undefined, max: number): string {
  if (typeof text !== 'string') return '';
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** How a row's state is coloured. */
export type Tone = 'ok' | 'fail' | 'warn' | 'pending' | 'neutral';

/**
 * The tone of a delivery code, from the delivery-state table embedded in the page (read from the
 * core catalogue): delivered → `ok`, failed → `fail`, pending → `pending`; no code yet → `pending`.
 */
export function deliveryTone(code: number | undefined, outcomes: Readonly<Record<string, string>>): Tone {
  if (code === undefined || code === null) return 'pending';
  const outcome = Object.hasOwn(outcomes, String(code)) ? outcomes[String(code)] : undefined;
  if (outcome === 'delivered') return 'ok';
  if (outcome === 'pending') return 'pending';
  return 'fail';
}

/** The tone of an admin outcome word (callback attempts, inbound status, invocations). */
export function outcomeTone(outcome: string | undefined): Tone {
  switch (outcome) {
    case 'delivered':
    case 'accepted':
      return 'ok';
    case 'failed':
    case 'rejected':
    case 'gave-up':
      return 'fail';
    case 'pending-retry':
    case 'retrying':
      return 'warn';
    case 'pending':
      return 'pending';
    default:
      return 'neutral';
  }
}

/** `true` when `filter` is empty or one of `fields` contains it, ignoring case. */
export function matchesFilter(fields: readonly unknown[], filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  return fields.some((field) => {
    if (field === undefined || field === null) return false;
    const text = typeof field === 'string' ? field : JSON.stringify(field);
    return typeof text === 'string' && text.toLowerCase().includes(needle);
  });
}

/** What a form helper returns: the request body, or why the form cannot be sent. */
export type FormResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** A whole number field of a form: `undefined` when empty, an error text when not an integer in range. */
export function parseIntegerField(
  raw: string | undefined,
  label: string,
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
): { ok: true; value: number | undefined } | { ok: false; error: string } {
  const text = (raw ?? '').trim();
  if (text === '') return { ok: true, value: undefined };
  if (!/^-?\d+$/.test(text)) return { ok: false, error: `${label} must be a whole number.` };
  const value = Number(text);
  if (value < min || value > max) {
    return { ok: false, error: max === Number.MAX_SAFE_INTEGER ? `${label} must be at least ${min}.` : `${label} must be between ${min} and ${max}.` };
  }
  return { ok: true, value };
}

/** The values of the inbound form, as read from its controls. */
export interface InboundFormValues {
  accountId?: string;
  from?: string;
  to?: string;
  /** `text` sends `content` as text, `hex` as hex-encoded octets. */
  mode?: string;
  content?: string;
  charset?: string;
  binary?: boolean;
  /** The hex content starts with a user data header. */
  udh?: boolean;
  multipart?: boolean;
  referenceBits?: string;
  url?: string;
  format?: string;
}

/**
 * The body of `POST /__sandbox/api/inbound` for the inbound form. Only presence is checked here;
 * the sandbox validates addresses, hex and charsets and answers 400 with its own description.
 */
export function buildInboundBody(values: InboundFormValues): FormResult<Record<string, unknown>> {
  const from = (values.from ?? '').trim();
  const to = (values.to ?? '').trim();
  if (from === '') return { ok: false, error: 'From (the handset number) is required.' };
  if (to === '') return { ok: false, error: 'To (your originator) is required.' };
  const body: Record<string, unknown> = {};
  const accountId = (values.accountId ?? '').trim();
  if (accountId !== '') body.accountId = accountId;
  body.from = from;
  body.to = to;
  const content = values.content ?? '';
  if (values.mode === 'hex') {
    const hex = content.replace(/\s+/g, '');
    if (hex === '') return { ok: false, error: 'Hex content is required.' };
    body.hex = hex;
    if (values.binary) body.binary = true;
    if (values.udh) body.udh = true;
  } else {
    if (content === '') return { ok: false, error: 'Text is required.' };
    body.text = content;
  }
  const charset = (values.charset ?? '').trim();
  if (charset !== '' && !(values.mode === 'hex' && values.binary)) body.charset = charset;
  if (values.multipart === false) body.multipart = false;
  else if (values.referenceBits === '8' || values.referenceBits === '16') body.referenceBits = Number(values.referenceBits);
  const url = (values.url ?? '').trim();
  if (url !== '') body.url = url;
  const format = (values.format ?? '').trim();
  if (format === 'json' || format === 'xml') body.format = format;
  return { ok: true, value: body };
}

/** The values of the compose form. */
export interface ComposeFormValues {
  accountId?: string;
  destination?: string;
  content?: string;
  /** `on` when a text longer than one part is sent in parts (`mlc: segment`). */
  segment?: string;
  url?: string;
}

/**
 * The body of `POST /__sandbox/api/messages` for the compose form: the account and the
 * `mobileTerminate` to send as it. Only presence is checked here; the sandbox answers what the
 * service would (540 and its description for an invalid message).
 */
export function buildComposeBody(values: ComposeFormValues): FormResult<Record<string, unknown>> {
  const destination = (values.destination ?? '').trim();
  if (destination === '') return { ok: false, error: 'To (the destination number) is required.' };
  const content = values.content ?? '';
  if (content === '') return { ok: false, error: 'Text is required.' };
  const message: Record<string, unknown> = { type: 'text', content };
  if (values.segment === 'on') message.mlc = 'segment';
  const mobileTerminate: Record<string, unknown> = { destination: { address: destination }, message };
  const url = (values.url ?? '').trim();
  if (url !== '') mobileTerminate.delivery = { receiptRequested: 'final', url };
  const body: Record<string, unknown> = { mobileTerminate };
  const accountId = (values.accountId ?? '').trim();
  if (accountId !== '') body.accountId = accountId;
  return { ok: true, value: body };
}

/** What the compose form shows about its text, worded from core's `explain`. */
export interface EstimateSummary {
  /** `GSM 7-bit`, `UCS-2` or `8-bit`. */
  readonly encoding: string;
  /** `1 part`, `3 parts`. */
  readonly parts: string;
  /** What is left in the last part, in the encoding's characters. */
  readonly left: string;
  /** The characters that force UCS-2, or empty. */
  readonly forced: string;
  /** What the GSM substitutes would change, or empty. */
  readonly substitutes: string;
}

/** A character as the form shows it: quoted, with its code point (many are hard to tell apart). */
export function describeCharacter(char: string): string {
  const point = char.codePointAt(0) ?? 0;
  return `“${char}” U+${point.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Words core's explanation of a text for the compose form: encoding, parts, room left, what forces UCS-2. */
export function describeEstimate(explanation: Explanation): EstimateSummary {
  const { estimate } = explanation;
  const encoding = estimate.encoding === 'GSM' ? 'GSM 7-bit' : estimate.encoding;
  const parts = `${estimate.segments} part${estimate.segments === 1 ? '' : 's'}`;
  const unit = estimate.unit === 'septet' ? 'character' : estimate.unit === 'utf16-unit' ? 'UCS-2 character' : 'octet';
  const where = estimate.segments === 1 ? '' : ` in part ${estimate.segments}`;
  const left = `${estimate.unitsLeft} ${unit}${estimate.unitsLeft === 1 ? '' : 's'} left${where} (of ${estimate.unitsPerPart})`;
  const forced =
    estimate.encoding === 'UCS-2' && estimate.ucs2Characters.length > 0
      ? `UCS-2 because of ${estimate.ucs2Characters.map((c) => `${describeCharacter(c.char)}${c.count > 1 ? ` ×${c.count}` : ''}`).join(', ')}`
      : '';
  let substitutes = '';
  if (forced !== '') {
    const replaced = [...new Map(explanation.substitutions.map((s) => [s.char, s.replacement])).entries()];
    const after = explanation.substitutedEstimate;
    if (replaced.length > 0 && after.encoding === 'GSM') {
      const saved = explanation.segmentsSaved;
      substitutes = `With GSM substitutes (${replaced.map(([from, to]) => `${from} → ${to === '' ? 'nothing' : to}`).join(', ')}) it is GSM 7-bit: ${after.segments} part${after.segments === 1 ? '' : 's'}${saved > 0 ? `, ${saved} fewer` : ''}.`;
    } else if (explanation.unsubstitutable.length > 0) {
      substitutes = `No GSM substitute for ${explanation.unsubstitutable.map((c) => describeCharacter(c.char)).join(', ')}.`;
    }
  }
  return { encoding, parts, left, forced, substitutes };
}

/** The values of the scenario form. */
export interface ScenarioFormValues {
  destination?: string;
  kind?: string;
  delayMs?: string;
  segmentNumber?: string;
  code?: string;
}

/** The destination (an address or `*`) and scenario of the scenario form. */
export function buildScenario(values: ScenarioFormValues): FormResult<{ destination: string; scenario: Scenario }> {
  const destination = (values.destination ?? '').trim() || '*';
  const delay = parseIntegerField(values.delayMs, 'Delay', 0);
  if (!delay.ok) return delay;
  const segment = parseIntegerField(values.segmentNumber, 'Part', 1, 255);
  if (!segment.ok) return segment;
  const code = parseIntegerField(values.code, 'Code', 0, 99_999);
  if (!code.ok) return code;
  let scenario: Scenario;
  switch (values.kind) {
    case 'delivered':
      scenario = delay.value === undefined ? { kind: 'delivered' } : { kind: 'delivered', delayMs: delay.value };
      break;
    case 'delayed':
      if (delay.value === undefined) return { ok: false, error: 'A delayed scenario needs a delay.' };
      scenario = { kind: 'delayed', delayMs: delay.value };
      break;
    case 'expired':
      scenario = { kind: 'expired' };
      break;
    case 'fail-part':
      if (segment.value === undefined) return { ok: false, error: 'A failing-part scenario needs a part number.' };
      scenario = code.value === undefined
        ? { kind: 'fail-part', segmentNumber: segment.value }
        : { kind: 'fail-part', segmentNumber: segment.value, code: code.value };
      break;
    case 'no-receipt':
      scenario = segment.value === undefined ? { kind: 'no-receipt' } : { kind: 'no-receipt', segmentNumber: segment.value };
      break;
    case 'rejected':
      if (code.value === undefined) return { ok: false, error: 'A rejected scenario needs a code.' };
      scenario = { kind: 'rejected', code: code.value };
      break;
    default:
      return { ok: false, error: 'Choose a scenario.' };
  }
  return { ok: true, value: { destination, scenario } };
}

/** One line describing a scenario (`fail-part · part 2 · code 811`). */
export function describeScenario(scenario: unknown): string {
  if (typeof scenario !== 'object' || scenario === null) return String(scenario);
  const record = scenario as Record<string, unknown>;
  const bits = [String(record.kind)];
  if (typeof record.delayMs === 'number') bits.push(`after ${formatDuration(record.delayMs)} (simulated)`);
  if (typeof record.segmentNumber === 'number') bits.push(`part ${record.segmentNumber}`);
  if (typeof record.code === 'number') bits.push(`code ${record.code}`);
  return bits.join(' · ');
}

/** The values of the fault form. */
export interface FaultFormValues {
  operation?: string;
  kind?: string;
  count?: string;
  latencyMs?: string;
}

/**
 * The body of `POST /__sandbox/api/faults` for the fault form. Numbers are read here; their ranges
 * are the sandbox's to check (it answers 400 with its own description).
 */
export function buildFault(values: FaultFormValues): FormResult<Fault> {
  const operation = values.operation ?? '';
  if (operation !== 'send' && operation !== 'status' && operation !== 'lookup' && operation !== 'invokeService') {
    return { ok: false, error: 'Choose an operation.' };
  }
  const kind = values.kind ?? '';
  if (kind !== '1010' && kind !== '1000' && kind !== 'latency' && kind !== 'drop-after-accept') return { ok: false, error: 'Choose a fault.' };
  const count = parseIntegerField(values.count, 'Count', 1);
  if (!count.ok) return count;
  const fault: Fault = { operation, kind, count: count.value ?? 1 };
  if (kind === 'latency') {
    const latency = parseIntegerField(values.latencyMs, 'Latency', 0);
    if (!latency.ok) return latency;
    if (latency.value !== undefined) fault.latencyMs = latency.value;
  }
  return { ok: true, value: fault };
}

/** Counts of the snapshot's lists, to tell what changed between two snapshots. */
export interface SnapshotCounts {
  messages: number;
  callbacks: number;
  inbound: number;
  invocations: number;
}

/**
 * A short sentence for the live region about what a new snapshot adds (`2 new messages, 1 new
 * callback attempt`); empty when nothing was added. Counts that went down (reset, eviction) are
 * reported as a cleared sandbox only when every list is empty.
 */
export function describeChanges(before: SnapshotCounts | undefined, after: SnapshotCounts): string {
  if (before === undefined) {
    return `Loaded ${after.messages} message${after.messages === 1 ? '' : 's'}, ${after.callbacks} callback attempt${after.callbacks === 1 ? '' : 's'}, ${after.inbound} inbound message${after.inbound === 1 ? '' : 's'}, ${after.invocations} invocation${after.invocations === 1 ? '' : 's'}.`;
  }
  const total = after.messages + after.callbacks + after.inbound + after.invocations;
  const totalBefore = before.messages + before.callbacks + before.inbound + before.invocations;
  if (total === 0 && totalBefore > 0) return 'Sandbox cleared.';
  const parts: string[] = [];
  const added = (n: number, one: string, many: string): void => {
    if (n > 0) parts.push(`${n} new ${n === 1 ? one : many}`);
  };
  added(after.messages - before.messages, 'message', 'messages');
  added(after.callbacks - before.callbacks, 'callback attempt', 'callback attempts');
  added(after.inbound - before.inbound, 'inbound message', 'inbound messages');
  added(after.invocations - before.invocations, 'invocation', 'invocations');
  return parts.length === 0 ? '' : `${parts.join(', ')}.`;
}

/** The counters shown in the dashboard's header: sends, final parts and callback attempts. */
export interface MetricsSummary {
  readonly sends: string;
  readonly parts: string;
  readonly callbacks: string;
}

/** Words for the sandbox's counters (`metrics` of the snapshot). */
export function summarizeMetrics(metrics: SandboxMetricsView | undefined): MetricsSummary {
  if (metrics === undefined) return { sends: '—', parts: '—', callbacks: '—' };
  let delivered = 0;
  let failed = 0;
  for (const [code, count] of Object.entries(metrics.finalParts)) {
    if (code === '0' || code === '4') delivered += count;
    else failed += count;
  }
  const attempts = (outcome: string): number => Object.values(metrics.callbacks).reduce((n, byOutcome) => n + (byOutcome[outcome] ?? 0), 0);
  const gaveUp = attempts('gave-up');
  return {
    sends: `${metrics.sendsAccepted} accepted · ${metrics.sendsRejected} rejected`,
    parts: `${delivered} delivered · ${failed} failed`,
    callbacks: `${attempts('delivered')} delivered · ${attempts('failed') + attempts('pending-retry')} failed${gaveUp > 0 ? ` · ${gaveUp} given up` : ''}`,
  };
}
