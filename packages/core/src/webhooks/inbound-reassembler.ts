/**
 * Inbound messages as a person sent them: a single-part message as it came, and the parts of a
 * multipart message (each posted on its own, in any order, with a concatenation element of 8- or
 * 16-bit reference in its user data header) joined once all have arrived. Parts whose siblings do
 * not arrive in time are reported as an incomplete message (an orphan).
 */
import type { WireFormat } from '../codec/wire-format.js';
import type { MobileOriginate, MoDestination, MoSource } from '../mobile-originate/mobile-originate.js';
import type { GsmSubstitution } from '../text/gsm-codec.js';
import type { NationalTables } from '../text/gsm-national.js';
import type { HexCharset } from '../text/hex.js';
import type { ReferenceBits } from '../text/capacity.js';
import type { NationalShift, UserDataHeader } from '../text/udh.js';
import { parseTimestamp, type Timestamp } from '../time/xs-date-time.js';
import type { InboundCallback } from './decode-callback.js';
import { decodeInboundText, type InboundCharset } from './inbound-content.js';
import { checkPositiveIntegers } from '../option-checks.js';

/** The concatenation of a multipart inbound message. */
export interface InboundConcatenation {
  readonly reference: number;
  readonly referenceBits: ReferenceBits;
  /** Number of parts the message announced. */
  readonly total: number;
}

/** An inbound message: a single-part message, a reassembled multipart one, or the parts of an orphan. */
export interface InboundMessage {
  /** The ticket ID of the first part present (the message's only one when single-part). */
  readonly ticketId: string;
  /** The ticket IDs of the parts present, in part order. */
  readonly ticketIds: readonly string[];
  /** The `submittedDate` of the earliest part (compared as instants), as received: any offset. */
  readonly submittedDate?: string;
  /** The UTC instant of `submittedDate`, with milliseconds (`2015-08-29T20:10:03.029Z`): what to compare and store. */
  readonly submittedInstant?: string;
  readonly source: MoSource;
  readonly destination: MoDestination;
  /** `text`, `hexEncodedText` or `binary`, as the (first) part said. */
  readonly type: string;
  /**
   * Single-part: the content as received. Multipart: the hex of the parts' payloads joined in
   * part order, user data headers removed (missing parts of an orphan are skipped).
   */
  readonly content: string;
  /** The readable text: the content of a `text` message, or hex text decoded; absent for `binary` or undecodable content. */
  readonly text?: string;
  /** The charset hex text was decoded in (named by the receiver, or guessed). */
  readonly charset?: HexCharset;
  /** GSM text: the national language tables its header named (the first part's, for a multipart message). */
  readonly nationalTables?: NationalTables;
  /**
   * GSM text: each place where the receiver decoding of TS 23.038 6.2.1.1 substituted (an escape
   * sequence no table defines, `1B 1B`, a trailing escape), present only when it did. Indexes are
   * octet indexes in `content` (hex offset: twice the index).
   */
  readonly substitutions?: readonly GsmSubstitution[];
  /** The user data header of a single-part message that has one (e.g. port addressing). */
  readonly header?: UserDataHeader;
  /**
   * Set when the message says it carries a user data header (`udh: true`) but its content does
   * not start with one that parses: why. The message is handed over as received (`content`, no
   * `text`), never refused.
   */
  readonly headerProblem?: string;
  /** Present for a multipart message. */
  readonly concatenation?: InboundConcatenation;
  /** `false` for an orphan: some parts never arrived. */
  readonly complete: boolean;
  /** Part numbers that never arrived (empty when complete). */
  readonly missingParts: readonly number[];
  /** The parts as received, in part order. */
  readonly parts: readonly MobileOriginate[];
  /** The format the (first) part was posted in. */
  readonly format: WireFormat;
}

/**
 * The earliest `submittedDate` of some parts, compared as instants (`{}` when none has one; the
 * first text without an instant when none reads, as only a hand-built part can hold).
 */
function earliestSubmitted(parts: readonly MobileOriginate[]): { submittedDate?: string; submittedInstant?: string } {
  let earliest: Timestamp | undefined;
  let unread: string | undefined;
  for (const part of parts) {
    if (part.submittedDate === undefined) continue;
    const read = parseTimestamp(part.submittedDate);
    if (!read.ok) unread ??= part.submittedDate;
    else if (earliest === undefined || read.value.epochMs < earliest.epochMs) earliest = read.value;
  }
  if (earliest !== undefined) return { submittedDate: earliest.text, submittedInstant: earliest.instant };
  return unread === undefined ? {} : { submittedDate: unread };
}

type DecodedText = Pick<InboundMessage, 'text' | 'charset' | 'nationalTables' | 'substitutions'>;

/** Decodes the text of hex content; `undefined` text when it does not decode. */
function textOf(type: string, hex: string, charset: InboundCharset, national: NationalShift | undefined): DecodedText {
  if (type !== 'hexEncodedText') return {};
  const decoded = decodeInboundText(hex, charset, national === undefined ? {} : { national });
  return decoded.ok ? decoded.value : {};
}

/**
 * The {@link InboundMessage} of a single-part inbound callback (no concatenation element, or a
 * message of one part).
 */
export function singleInboundMessage(callback: InboundCallback, charset: InboundCharset = 'auto'): InboundMessage {
  const { message, format, header, payload, headerProblem } = callback;
  // Content whose header does not parse is kept as received, not read as text (its first octets are no text).
  const text =
    message.message.type === 'text' ? { text: message.message.content } : headerProblem === undefined ? textOf(message.message.type, payload, charset, header?.national) : {};
  return {
    ticketId: message.ticketId,
    ticketIds: [message.ticketId],
    ...earliestSubmitted([message]),
    source: message.source,
    destination: message.destination,
    type: message.message.type,
    content: message.message.content,
    ...text,
    ...(header === undefined ? {} : { header }),
    ...(headerProblem === undefined ? {} : { headerProblem }),
    complete: true,
    missingParts: [],
    parts: [message],
    format,
  };
}

/**
 * The {@link InboundMessage} of the parts of one multipart message, by part number: the parts
 * present joined in part order (missing ones skipped and listed), decoded once. Shared by every
 * reassembly store, so that a message joined in memory and one joined in a shared store are the same.
 */
export function assembleInboundMessage(parts: ReadonlyMap<number, InboundCallback>, concatenation: InboundConcatenation, charset: InboundCharset = 'auto'): InboundMessage {
  const { total } = concatenation;
  const present: InboundCallback[] = [];
  const missingParts: number[] = [];
  for (let n = 1; n <= total; n++) {
    const part = parts.get(n);
    if (part === undefined) missingParts.push(n);
    else present.push(part);
  }
  const first = present[0];
  if (first === undefined) throw new TypeError('a multipart message needs at least one part');
  const type = first.message.message.type;
  const content = present.map((p) => p.payload).join('');
  return {
    ticketId: first.message.ticketId,
    ticketIds: present.map((p) => p.message.ticketId),
    ...earliestSubmitted(present.map((p) => p.message)),
    source: first.message.source,
    destination: first.message.destination,
    type,
    content,
    ...textOf(type, content, charset, first.header?.national),
    concatenation,
    complete: missingParts.length === 0,
    missingParts,
    parts: present.map((p) => p.message),
    format: first.format,
  };
}

/**
 * The key of the multipart message a part belongs to: reference width, reference, part count,
 * sender and originator (so two messages with the same reference from different handsets stay
 * apart). Readable, and safe as (part of) a Redis key.
 *
 * @throws TypeError for a callback without a concatenation element.
 */
export function reassemblyKey(part: InboundCallback): string {
  const c = part.concatenation;
  if (c === undefined) throw new TypeError('a reassembly key needs one part of a multipart message (a callback with a concatenation element)');
  return `${c.referenceBits}-${c.reference}-${c.total}:${encodeURIComponent(part.message.source.address)}:${encodeURIComponent(part.message.destination.address)}`;
}

/** Timers the reassembler arms its timeouts with (the runtime's by default). */
export interface ReassemblerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of {@link createInboundReassembler}. */
export interface InboundReassemblerOptions {
  /** How long the parts of a message wait for their siblings, from the first part's arrival (default 10 minutes). */
  readonly timeoutMs?: number;
  /** Most incomplete messages held; beyond it the oldest is reported as an orphan at once (default 10 000). */
  readonly maxPending?: number;
  /** Charset of hex text (default `'auto'`: guessed, see `guessInboundCharset`). */
  readonly charset?: InboundCharset;
  /** Told about each orphan: an incomplete message whose timeout passed, or pushed out by `maxPending`, or flushed. */
  readonly onOrphan?: (message: InboundMessage) => void;
  /** The timers (default the runtime's `setTimeout`; Node's are unref'd so they never keep a process alive). */
  readonly timers?: ReassemblerTimers;
  /** The clock, in milliseconds (default `Date.now`). */
  readonly now?: () => number;
}

/** What {@link InboundReassembler.add} did with a part. */
export type ReassemblyOutcome =
  | {
      /** The last missing part: the whole message, removed from the reassembler. */
      readonly status: 'complete';
      readonly message: InboundMessage;
      /** Puts the other parts back (the handler failed, the retry of this part will complete it again). */
      restore(): void;
    }
  /** Kept until the other parts arrive. */
  | { readonly status: 'stored'; readonly received: number; readonly total: number }
  /** A part with this number is already held (another ticket ID): the first one is kept. */
  | { readonly status: 'duplicate-part' };

/** Joins the parts of multipart inbound messages. */
export interface InboundReassembler {
  /** Adds one part of a multipart message (a callback with a `concatenation`). */
  add(part: InboundCallback): ReassemblyOutcome;
  /** Incomplete messages held. */
  readonly pending: number;
  /** Reports every incomplete message as an orphan now (e.g. at shutdown) and empties the reassembler. */
  flush(): void;
  /** Cancels the timers and drops the incomplete messages without reporting them. */
  close(): void;
}

interface Group {
  readonly key: string;
  readonly concatenation: InboundConcatenation;
  readonly parts: Map<number, InboundCallback>;
  readonly firstAt: number;
  timer: unknown;
}

/** The runtime's timers, unref'd where the runtime can (so they never keep a Node process alive). */
export const runtimeTimers: ReassemblerTimers = {
  setTimeout(callback, ms) {
    const handle = globalThis.setTimeout(callback, ms) as unknown;
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout(handle) {
    globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]);
  },
};

/**
 * Creates an in-memory {@link InboundReassembler}. Parts are grouped by sender, originator,
 * reference (8- or 16-bit: the two never mix) and part count, so two messages with the same
 * reference from different handsets stay apart.
 *
 * @example
 * const reassembler = createInboundReassembler({ onOrphan: (m) => console.warn('incomplete', m.missingParts) });
 * const outcome = reassembler.add(callback); // callback from decodeCallback, with a concatenation
 * if (outcome.status === 'complete') console.log(outcome.message.text);
 */
export function createInboundReassembler({
  timeoutMs = 10 * 60_000,
  maxPending = 10_000,
  charset = 'auto',
  onOrphan = () => undefined,
  timers = runtimeTimers,
  now = Date.now,
}: InboundReassemblerOptions = {}): InboundReassembler {
  if (!(timeoutMs > 0)) throw new TypeError(`timeoutMs must be a positive number, got ${String(timeoutMs)}`);
  checkPositiveIntegers({ maxPending });
  const groups = new Map<string, Group>();

  const messageOf = (group: Group): InboundMessage => assembleInboundMessage(group.parts, group.concatenation, charset);

  const orphan = (group: Group): void => {
    if (groups.get(group.key) !== group) return;
    groups.delete(group.key);
    timers.clearTimeout(group.timer);
    onOrphan(messageOf(group));
  };

  const arm = (group: Group): void => {
    const remaining = Math.max(0, group.firstAt + timeoutMs - now());
    group.timer = timers.setTimeout(() => orphan(group), remaining);
  };


  const insert = (key: string, concatenation: InboundConcatenation, firstAt: number): Group => {
    const group: Group = { key, concatenation, parts: new Map(), firstAt, timer: undefined };
    groups.set(key, group);
    arm(group);
    while (groups.size > maxPending) {
      const oldest = groups.values().next();
      if (oldest.done === true) break;
      orphan(oldest.value);
    }
    return group;
  };

  return {
    add(part) {
      const c = part.concatenation;
      if (c === undefined) throw new TypeError('add takes one part of a multipart message (a callback with a concatenation element)');
      const concatenation: InboundConcatenation = { reference: c.reference, referenceBits: c.referenceBits, total: c.total };
      const key = reassemblyKey(part);
      const group = groups.get(key) ?? insert(key, concatenation, now());
      if (group.parts.has(c.sequence)) return { status: 'duplicate-part' };
      group.parts.set(c.sequence, part);
      if (group.parts.size < c.total) return { status: 'stored', received: group.parts.size, total: c.total };
      groups.delete(key);
      timers.clearTimeout(group.timer);
      const message = messageOf(group);
      return {
        status: 'complete',
        message,
        restore() {
          const target = groups.get(key) ?? insert(key, concatenation, group.firstAt);
          for (const [sequence, held] of group.parts) {
            if (held !== part && !target.parts.has(sequence)) target.parts.set(sequence, held);
          }
        },
      };
    },
    get pending() {
      return groups.size;
    },
    flush() {
      for (const group of [...groups.values()]) orphan(group);
    },
    close() {
      for (const group of groups.values()) timers.clearTimeout(group.timer);
      groups.clear();
    },
  };
}
