/**
 * Where a receiver keeps the parts of multipart inbound messages until all have arrived. The
 * default keeps them in this process's memory ({@link createMemoryReassemblyStore}); receivers on
 * several instances share one store (see `createRedisReassemblyStore`), so that parts of one
 * message that reach different instances are joined, and parts held survive a restart.
 *
 * A message (a *group*: the parts under one {@link reassemblyKey}) goes through these states:
 *
 * - **collecting**: parts are added as they come; each is held for good once `add` resolved, and a
 *   repeat of a part is recognised by its ticket ID (so the store needs no duplicate store in front);
 * - **handed over** (a lease): the part that completed the group took every part, atomically, and
 *   its handler runs; `finish` ends the group once the handler resolved, `restore` puts it back to
 *   collecting when the handler failed. If the instance dies meanwhile, the lease runs out and the
 *   group can be taken again;
 * - **orphan** (a lease): the group was incomplete at its deadline, and one instance claimed it
 *   through `claimExpired` to report it; `finish` ends it once reported.
 *
 * The tickets of parts handed over (in a message or an orphan) are remembered for a while, so that
 * a late retry of a part already handed over is recognised instead of starting a new message.
 */
import type { InboundCallback } from './decode-callback.js';
import type { MaybePromise } from './duplicate-store.js';
import { ownString } from './own-string.js';
import { assembleInboundMessage, reassemblyKey, type InboundConcatenation, type InboundMessage } from './inbound-reassembler.js';
import type { InboundCharset } from './inbound-content.js';
import { checkFunctions, checkPositiveIntegers } from '../option-checks.js';

/** The parts of one message, taken from a store: to be handed over, then finished (or restored). */
export interface ReassemblyGroup {
  /** The message's key ({@link reassemblyKey}). */
  readonly key: string;
  /** This hand-over: `finish` and `restore` act only while the group is still held under it. */
  readonly token: string;
  /** Reference, reference width and part count. */
  readonly concatenation: InboundConcatenation;
  /** The parts present, in part order (all of them when taken complete; those that came for an orphan). */
  readonly parts: readonly InboundCallback[];
}

/** What {@link ReassemblyStore.add} did with a part. */
export type PartAddOutcome = (
  | {
      /** Held until the other parts arrive. */
      readonly status: 'stored';
      /** Parts held for this message. */
      readonly received: number;
      readonly total: number;
    }
  /** This part (its ticket) is held already, and its message is still incomplete: a repeat. */
  | { readonly status: 'held' }
  /**
   * This part is held already, in a message being handed over (or reported as an orphan) under a
   * live lease: answer so that the service retries (by then the message is handed over, or given
   * back and taken again by the retry).
   */
  | { readonly status: 'in-flight' }
  /** Another ticket holds this part number of the message already; the first one is kept. */
  | { readonly status: 'duplicate-part' }
  /**
   * Not held: the parts waiting fill the store's byte budget (`maxPendingBytes`). Answer so that
   * the service retries later, when messages have completed or been given up as orphans.
   */
  | { readonly status: 'full' }
  /** This part (its ticket) was handed over before, in a message or an orphan: nothing to do. */
  | { readonly status: 'handed-over' }
  /** The message is complete: every part, taken under a lease. Finish or restore the group. */
  | { readonly status: 'complete'; readonly group: ReassemblyGroup }
) & {
  /**
   * Groups the store had to give up to make room (a store with a size limit): claimed as orphans,
   * to be reported and finished like those of {@link ReassemblyStore.claimExpired}.
   */
  readonly evicted?: readonly ReassemblyGroup[];
};

/** Options of {@link ReassemblyStore.add}. */
export interface ReassemblyAddOptions {
  /** How long a new message waits for its parts before it is an orphan, from its first part. */
  readonly timeoutMs: number;
  /** How long a message taken complete stays handed over if its handler never settles. */
  readonly leaseMs: number;
}

/** Options of {@link ReassemblyStore.finish}. */
export interface ReassemblyFinishOptions {
  /** How long the tickets of the parts handed over are remembered (the inbound retry window and a margin). */
  readonly handedOverTtlMs: number;
}

/** Options of {@link ReassemblyStore.claimExpired}. */
export interface ReassemblyClaimOptions {
  /** How long a claimed orphan stays claimed if it is not finished (its report failed or its instance died). */
  readonly leaseMs: number;
  /** Most orphans claimed in one call. */
  readonly limit: number;
}

/**
 * Where a receiver keeps the parts of multipart inbound messages. Every method must be atomic
 * towards every other client of the same store: two instances adding the last two parts of a
 * message at the same moment get one `complete` between them, and an orphan is claimed by one
 * instance only.
 */
export interface ReassemblyStore {
  /** Holds one part (a callback with a concatenation element); takes the whole message when it completes it. */
  add(part: InboundCallback, options: ReassemblyAddOptions): MaybePromise<PartAddOutcome>;
  /**
   * Ends a hand-over whose handler resolved: forgets the parts taken and remembers their tickets.
   * Resolves `false` when the group was no longer held under its token (its lease ran out and it was
   * taken again: the message may have been handed over twice).
   */
  finish(group: ReassemblyGroup, options: ReassemblyFinishOptions): MaybePromise<boolean>;
  /** Gives a taken group back (its handler failed): collecting again, every part kept. */
  restore(group: ReassemblyGroup): MaybePromise<void>;
  /** Claims messages past their deadline (and hand-overs whose lease ran out past it) as orphans. */
  claimExpired(options: ReassemblyClaimOptions): MaybePromise<readonly ReassemblyGroup[]>;
  /**
   * Claims every message held, at once (a store whose parts do not outlive the process, at
   * shutdown). Shared stores leave it out: their parts wait for the other instances.
   */
  drain?(options: ReassemblyClaimOptions): readonly ReassemblyGroup[];
  /** Messages held and not claimed as orphans, when the store can tell synchronously. */
  readonly pending?: number;
}

/**
 * The {@link InboundMessage} of a group taken from a store: its parts joined in part order,
 * `complete: false` with the missing part numbers for an orphan.
 */
export function groupMessage(group: ReassemblyGroup, charset: InboundCharset = 'auto'): InboundMessage {
  const parts = new Map<number, InboundCallback>();
  for (const part of group.parts) {
    const sequence = part.concatenation?.sequence;
    if (sequence !== undefined && !parts.has(sequence)) parts.set(sequence, part);
  }
  return assembleInboundMessage(parts, group.concatenation, charset);
}

/** Options of {@link createMemoryReassemblyStore}. */
export interface MemoryReassemblyStoreOptions {
  /** Most messages held; beyond it the oldest is given up as an orphan (default 10 000). */
  readonly maxPending?: number;
  /**
   * Most bytes the parts held may take, as estimated by {@link estimatePartBytes} (default 32 MiB).
   * A part past it is not held (`full`, answered 503 so the service retries), unless it completes
   * its message.
   */
  readonly maxPendingBytes?: number;
  /** Most tickets of handed-over parts remembered (default 100 000; the oldest are forgotten first). */
  readonly maxHandedOver?: number;
  /** The clock, in milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** A unique token per hand-over (default `crypto.randomUUID`). */
  readonly token?: () => string;
}

/** The in-memory store: synchronous, with what it holds. */
export interface MemoryReassemblyStore extends ReassemblyStore {
  add(part: InboundCallback, options: ReassemblyAddOptions): PartAddOutcome;
  finish(group: ReassemblyGroup, options: ReassemblyFinishOptions): boolean;
  restore(group: ReassemblyGroup): void;
  claimExpired(options: ReassemblyClaimOptions): readonly ReassemblyGroup[];
  drain(options: ReassemblyClaimOptions): readonly ReassemblyGroup[];
  readonly pending: number;
  /** The bytes the parts held take, as estimated by {@link estimatePartBytes}. */
  readonly pendingBytes: number;
  /** Forgets everything. */
  clear(): void;
}

/** The default byte budget of the parts an in-memory reassembly store holds: 32 MiB. */
export const DEFAULT_MAX_PENDING_BYTES = 32 * 1024 * 1024;

/**
 * The memory one held part takes, estimated: its text fields at two bytes a character, and 1 KiB
 * for the rest of the decoded callback. What the byte budget of a reassembly store counts.
 */
export function estimatePartBytes(part: InboundCallback): number {
  const m = part.message;
  const text = m.message.content.length + part.payload.length + m.ticketId.length + m.source.address.length + m.destination.address.length;
  return 1024 + 2 * text;
}

interface MemoryGroup {
  readonly key: string;
  readonly concatenation: InboundConcatenation;
  readonly parts: Map<number, InboundCallback>;
  readonly timeoutMs: number;
  deadline: number;
  /** The hand-over or orphan claim holding the group, if any. */
  token: string | undefined;
  orphan: boolean;
  leaseEnd: number;
  /** The part numbers the current claim took (late parts of an orphan stay). */
  claimed: number[];
}

const concatenationOf = (part: InboundCallback): InboundConcatenation => {
  const c = part.concatenation;
  if (c === undefined) throw new TypeError('add takes one part of a multipart message (a callback with a concatenation element)');
  return { reference: c.reference, referenceBits: c.referenceBits, total: c.total };
};

const sortedParts = (parts: ReadonlyMap<number, InboundCallback>): InboundCallback[] =>
  [...parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);

/**
 * A {@link ReassemblyStore} in this process's memory, synchronous. It is the default of a receiver
 * on one instance; it is lost on restart and not shared between instances (for that, use a shared
 * store). At most `maxPending` messages are held: beyond it the oldest is given up as an orphan.
 *
 * @example
 * const reassembly = createMemoryReassemblyStore({ maxPending: 50_000 });
 */
export function createMemoryReassemblyStore({
  maxPending = 10_000,
  maxPendingBytes = DEFAULT_MAX_PENDING_BYTES,
  maxHandedOver = 100_000,
  now = Date.now,
  token = () => globalThis.crypto.randomUUID(),
}: MemoryReassemblyStoreOptions = {}): MemoryReassemblyStore {
  checkPositiveIntegers({ maxPending, maxPendingBytes, maxHandedOver });
  checkFunctions({ now, token });
  // Groups in the order they were created (the oldest is given up first).
  const groups = new Map<string, MemoryGroup>();
  // Tickets handed over, with their expiry, oldest first.
  const handedOver = new Map<string, number>();
  let orphans = 0;
  let bytes = 0;

  const snapshot = (group: MemoryGroup, parts: readonly InboundCallback[]): ReassemblyGroup => ({
    key: group.key,
    token: group.token as string,
    concatenation: group.concatenation,
    parts,
  });

  const claim = (group: MemoryGroup, leaseMs: number, at: number): ReassemblyGroup => {
    if (!group.orphan) orphans++;
    group.token = token();
    group.orphan = true;
    group.leaseEnd = at + leaseMs;
    group.claimed = [...group.parts.keys()];
    return snapshot(group, sortedParts(group.parts));
  };

  const held = (group: MemoryGroup, at: number): boolean => group.token !== undefined && group.leaseEnd > at;

  const wasHandedOver = (ticketId: string, at: number): boolean => {
    const expiresAt = handedOver.get(ticketId);
    if (expiresAt === undefined) return false;
    if (expiresAt > at) return true;
    handedOver.delete(ticketId);
    return false;
  };

  const remember = (ticketId: string, expiresAt: number): void => {
    handedOver.delete(ticketId);
    handedOver.set(ticketId, expiresAt);
    while (handedOver.size > maxHandedOver) {
      const oldest = handedOver.keys().next();
      if (oldest.done === true) break;
      handedOver.delete(oldest.value);
    }
  };

  return {
    add(part, { timeoutMs, leaseMs }) {
      const concatenation = concatenationOf(part);
      const at = now();
      const sequence = (part.concatenation as { sequence: number }).sequence;
      const ticketId = part.message.ticketId;
      if (wasHandedOver(ticketId, at)) return { status: 'handed-over' };
      const key = reassemblyKey(part);
      let group = groups.get(key);
      const size = estimatePartBytes(part);
      // A new message's first part never completes it: not held past the budget.
      if (group === undefined && bytes + size > maxPendingBytes) return { status: 'full' };
      let evicted: ReassemblyGroup[] | undefined;
      if (group === undefined) {
        group = { key, concatenation, parts: new Map(), timeoutMs, deadline: at + timeoutMs, token: undefined, orphan: false, leaseEnd: 0, claimed: [] };
        groups.set(key, group);
        // Give up the oldest messages nobody holds (their parts stay until the orphan is finished).
        if (groups.size - orphans > maxPending) {
          for (const oldest of groups.values()) {
            if (groups.size - orphans <= maxPending) break;
            if (oldest !== group && !oldest.orphan && !held(oldest, at)) (evicted ??= []).push(claim(oldest, leaseMs, at));
          }
        }
      }
      const withEvicted = <T extends object>(outcome: T): T & { evicted?: readonly ReassemblyGroup[] } => (evicted === undefined ? outcome : { ...outcome, evicted });
      const present = group.parts.get(sequence);
      const { total } = concatenation;
      if (present === undefined) {
        // A part that completes its message is held past the budget: it frees its siblings.
        if (group.parts.size + 1 < total && bytes + size > maxPendingBytes) {
          if (group.parts.size === 0) groups.delete(key);
          return withEvicted({ status: 'full' as const });
        }
        group.parts.set(sequence, part);
        bytes += size;
      } else if (present.message.ticketId !== ticketId) return withEvicted({ status: 'duplicate-part' as const });
      else if (held(group, at)) return withEvicted({ status: 'in-flight' as const });
      if (group.parts.size < total) return withEvicted(present === undefined ? { status: 'stored' as const, received: group.parts.size, total } : { status: 'held' as const });
      // A late part of an orphan being reported waits for it to end.
      if (held(group, at)) return withEvicted({ status: 'stored' as const, received: group.parts.size, total });
      if (group.orphan) orphans--;
      group.token = token();
      group.orphan = false;
      group.leaseEnd = at + leaseMs;
      group.claimed = [...group.parts.keys()];
      return withEvicted({ status: 'complete' as const, group: snapshot(group, sortedParts(group.parts)) });
    },
    finish(taken, { handedOverTtlMs }) {
      const group = groups.get(taken.key);
      if (group === undefined || group.token !== taken.token) return false;
      const at = now();
      for (const sequence of group.claimed) {
        const part = group.parts.get(sequence);
        if (part === undefined) continue;
        remember(ownString(part.message.ticketId), at + handedOverTtlMs);
        group.parts.delete(sequence);
        bytes -= estimatePartBytes(part);
      }
      if (group.orphan) orphans--;
      group.token = undefined;
      group.orphan = false;
      group.claimed = [];
      if (group.parts.size === 0) groups.delete(group.key);
      else {
        // Parts that came while an orphan was reported wait on their own, from now.
        groups.delete(group.key);
        groups.set(group.key, group);
        group.deadline = at + group.timeoutMs;
      }
      return true;
    },
    restore(taken) {
      const group = groups.get(taken.key);
      if (group === undefined || group.token !== taken.token) return;
      if (group.orphan) orphans--;
      group.token = undefined;
      group.orphan = false;
      group.claimed = [];
    },
    claimExpired({ leaseMs, limit }) {
      const at = now();
      const claimed: ReassemblyGroup[] = [];
      for (const group of groups.values()) {
        if (claimed.length >= limit) break;
        if (group.deadline <= at && !held(group, at)) claimed.push(claim(group, leaseMs, at));
      }
      return claimed;
    },
    drain({ leaseMs }) {
      const at = now();
      const claimed: ReassemblyGroup[] = [];
      for (const group of groups.values()) if (!group.orphan && !held(group, at)) claimed.push(claim(group, leaseMs, at));
      return claimed;
    },
    get pending() {
      return groups.size - orphans;
    },
    get pendingBytes() {
      return bytes;
    },
    clear() {
      bytes = 0;
      groups.clear();
      handedOver.clear();
      orphans = 0;
    },
  };
}
