import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeMobileOriginate } from '../mobile-originate/mobile-originate.js';
import { bytesToHex, encodeHex } from '../text/hex.js';
import { buildUserDataHeader } from '../text/udh.js';
import { decodeCallback, type InboundCallback } from './decode-callback.js';
import { createMemoryReassemblyStore, groupMessage, type PartAddOutcome, type ReassemblyGroup } from './reassembly-store.js';
import { heldBytes } from '../../test/heap.js';
import { runs } from '../../test/property-runs.js';

interface PartOptions {
  readonly reference?: number;
  readonly referenceBits?: 8 | 16;
  readonly from?: string;
  readonly ticket?: string;
}

/** One part of a GSM multipart message, built with core's UDH encoder and decoded as a callback. */
function part(text: string, sequence: number, total: number, { reference = 7, referenceBits = 8, from = '12065551234', ticket }: PartOptions = {}): InboundCallback {
  const ticketId = ticket ?? `T${referenceBits}-${reference}-${sequence}-${from}`;
  const header = bytesToHex(buildUserDataHeader({ concatenation: { reference, total, sequence, referenceBits } }));
  const body = encodeMobileOriginate(
    { ticketId, source: { address: from }, destination: { address: '24273' }, message: { type: 'hexEncodedText', udh: true, content: header + encodeHex(text, 'GSM') } },
    'json',
  );
  const result = decodeCallback(body, 'json');
  if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('bad part');
  return result.value;
}

const OPTIONS = { timeoutMs: 1000, leaseMs: 100 };
const FINISH = { handedOverTtlMs: 10_000 };

function completed(outcome: PartAddOutcome): ReassemblyGroup {
  if (outcome.status !== 'complete') throw new Error(`expected complete, got ${outcome.status}`);
  return outcome.group;
}

function clocked() {
  let now = 0;
  let n = 0;
  const store = createMemoryReassemblyStore({ now: () => now, token: () => `t${++n}` });
  return {
    store,
    at(ms: number) {
      now = ms;
    },
  };
}

describe('createMemoryReassemblyStore', () => {
  it('remembers the ticket IDs of messages handed over without holding their bodies alive', () => {
    // 200 messages of two parts read from XML bodies of 60 kB each: 24 MB should the store hold them.
    const padding = ' '.repeat(60_000);
    const xmlPart = (reference: number, sequence: number): InboundCallback => {
      const header = bytesToHex(buildUserDataHeader({ concatenation: { reference, total: 2, sequence, referenceBits: 16 } }));
      const message = { ticketId: `44101-0922I-${String(reference).padStart(5, '0')}-PART${sequence}`, source: { address: '12065551234' }, destination: { address: '24273' } };
      const body = encodeMobileOriginate({ ...message, message: { type: 'hexEncodedText', udh: true, content: header + encodeHex('hello', 'GSM') } }, 'xml') + padding;
      const result = decodeCallback(body, 'xml');
      if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('bad part');
      return result.value;
    };
    const { value: store, bytes } = heldBytes(() => {
      const made = createMemoryReassemblyStore();
      for (let reference = 0; reference < 200; reference++) {
        made.add(xmlPart(reference, 1), OPTIONS);
        expect(made.finish(completed(made.add(xmlPart(reference, 2), OPTIONS)), FINISH)).toBe(true);
      }
      return made;
    });
    expect(store.pending).toBe(0);
    // Handed over: a repeat of either part is answered as one of a message handed over.
    expect(store.add(xmlPart(0, 1), OPTIONS).status).toBe('handed-over');
    expect(bytes).toBeLessThan(4 * 1024 * 1024);
  });

  it('holds parts in any order and takes the message once, with the last part', () => {
    const { store } = clocked();
    expect(store.add(part('lo', 3, 3), OPTIONS)).toEqual({ status: 'stored', received: 1, total: 3 });
    expect(store.add(part('Hel', 1, 3), OPTIONS)).toEqual({ status: 'stored', received: 2, total: 3 });
    const group = completed(store.add(part('lo ', 2, 3), OPTIONS));
    expect(group.parts.map((p) => p.concatenation?.sequence)).toEqual([1, 2, 3]);
    expect(groupMessage(group)).toMatchObject({ text: 'Hello lo', complete: true, missingParts: [] });
    expect(store.finish(group, FINISH)).toBe(true);
    expect(store.pending).toBe(0);
  });

  it('answers a repeat of a part handed over as handed-over, and a new message under the same reference as new', () => {
    const { store } = clocked();
    store.add(part('a', 1, 2), OPTIONS);
    store.finish(completed(store.add(part('b', 2, 2), OPTIONS)), FINISH);
    expect(store.add(part('a', 1, 2), OPTIONS)).toEqual({ status: 'handed-over' });
    expect(store.add(part('b', 2, 2), OPTIONS)).toEqual({ status: 'handed-over' });
    // The sender reused reference 7 for another message: other tickets, a new message.
    expect(store.add(part('c', 1, 2, { ticket: 'NEW-1' }), OPTIONS)).toMatchObject({ status: 'stored', received: 1 });
    expect(groupMessage(completed(store.add(part('d', 2, 2, { ticket: 'NEW-2' }), OPTIONS))).text).toBe('cd');
  });

  it('forgets handed-over tickets after their TTL', () => {
    const { store, at } = clocked();
    store.add(part('a', 1, 2), OPTIONS);
    store.finish(completed(store.add(part('b', 2, 2), OPTIONS)), FINISH);
    at(10_000);
    expect(store.add(part('a', 1, 2), OPTIONS)).toMatchObject({ status: 'stored' });
  });

  it('keeps the first of two parts with the same number, and recognises a repeat of a held part', () => {
    const { store } = clocked();
    store.add(part('first', 1, 2), OPTIONS);
    expect(store.add(part('second', 1, 2, { ticket: 'OTHER-1' }), OPTIONS)).toEqual({ status: 'duplicate-part' });
    expect(store.add(part('first', 1, 2), OPTIONS)).toEqual({ status: 'held' });
    expect(groupMessage(completed(store.add(part('!', 2, 2), OPTIONS))).text).toBe('first!');
  });

  it('keeps 8- and 16-bit references and different senders apart', () => {
    const { store } = clocked();
    expect(store.add(part('a', 1, 2, { referenceBits: 8 }), OPTIONS).status).toBe('stored');
    expect(store.add(part('b', 2, 2, { referenceBits: 16 }), OPTIONS).status).toBe('stored');
    expect(store.add(part('c', 2, 2, { from: '447700900123' }), OPTIONS).status).toBe('stored');
    expect(store.pending).toBe(3);
  });

  it('gives a taken message back on restore, every part kept, so that the retry of any part takes it again', () => {
    const { store } = clocked();
    store.add(part('a', 1, 2), OPTIONS);
    const group = completed(store.add(part('b', 2, 2), OPTIONS));
    store.restore(group);
    expect(store.pending).toBe(1);
    expect(store.finish(group, FINISH)).toBe(false);
    const again = completed(store.add(part('b', 2, 2), OPTIONS));
    expect(groupMessage(again).text).toBe('ab');
    expect(store.finish(again, FINISH)).toBe(true);
  });

  it('holds a message handed over until its lease ends: repeats are in flight, then the next part takes it again', () => {
    const { store, at } = clocked();
    store.add(part('a', 1, 2), OPTIONS);
    const first = completed(store.add(part('b', 2, 2), OPTIONS));
    expect(store.add(part('a', 1, 2), OPTIONS)).toEqual({ status: 'in-flight' });
    expect(store.add(part('b', 2, 2), OPTIONS)).toEqual({ status: 'in-flight' });
    at(100); // the instance that took it died: its lease ran out
    const second = completed(store.add(part('b', 2, 2), OPTIONS));
    expect(second.token).not.toBe(first.token);
    expect(store.finish(first, FINISH)).toBe(false);
    expect(store.finish(second, FINISH)).toBe(true);
  });

  it('claims a message past its deadline once, as an orphan, and again only when the claim runs out', () => {
    const { store, at } = clocked();
    store.add(part('a', 1, 3), OPTIONS);
    at(999);
    expect(store.claimExpired({ leaseMs: 100, limit: 10 })).toEqual([]);
    at(1000);
    const [orphan] = store.claimExpired({ leaseMs: 100, limit: 10 });
    expect(orphan && groupMessage(orphan)).toMatchObject({ complete: false, missingParts: [2, 3], text: 'a' });
    expect(store.pending).toBe(0);
    expect(store.claimExpired({ leaseMs: 100, limit: 10 })).toEqual([]);
    at(1100);
    const [again] = store.claimExpired({ leaseMs: 100, limit: 10 });
    expect(again?.token).not.toBe(orphan?.token);
    expect(store.finish(orphan as ReassemblyGroup, FINISH)).toBe(false);
    expect(store.finish(again as ReassemblyGroup, FINISH)).toBe(true);
    at(5000);
    expect(store.claimExpired({ leaseMs: 100, limit: 10 })).toEqual([]);
    expect(store.add(part('a', 1, 3), OPTIONS)).toEqual({ status: 'handed-over' });
  });

  it('keeps a late part that arrives while its orphan is reported, for a deadline of its own', () => {
    const { store, at } = clocked();
    store.add(part('a', 1, 3), OPTIONS);
    at(1000);
    const [orphan] = store.claimExpired({ leaseMs: 100, limit: 10 });
    expect(store.add(part('b', 2, 3), OPTIONS)).toEqual({ status: 'stored', received: 2, total: 3 });
    store.finish(orphan as ReassemblyGroup, FINISH);
    expect(store.pending).toBe(1);
    at(1999);
    expect(store.claimExpired({ leaseMs: 100, limit: 10 })).toEqual([]);
    at(2000);
    const [late] = store.claimExpired({ leaseMs: 100, limit: 10 });
    expect(late && groupMessage(late)).toMatchObject({ missingParts: [1, 3], text: 'b' });
  });

  it('does not claim a message handed over under a live lease; claims it complete once the lease ran out past the deadline', () => {
    const { store, at } = clocked();
    store.add(part('a', 1, 2), OPTIONS);
    at(950);
    completed(store.add(part('b', 2, 2), OPTIONS));
    at(1000);
    expect(store.claimExpired({ leaseMs: 100, limit: 10 })).toEqual([]);
    at(1050);
    const [claimed] = store.claimExpired({ leaseMs: 100, limit: 10 });
    expect(claimed && groupMessage(claimed)).toMatchObject({ complete: true, text: 'ab' });
  });

  it('gives the oldest message up as an orphan beyond maxPending', () => {
    const store = createMemoryReassemblyStore({ maxPending: 2 });
    store.add(part('a', 1, 2, { reference: 1 }), OPTIONS);
    store.add(part('b', 1, 2, { reference: 2 }), OPTIONS);
    const outcome = store.add(part('c', 1, 2, { reference: 3 }), OPTIONS);
    expect(outcome.evicted?.map((g) => g.concatenation.reference)).toEqual([1]);
    expect(store.pending).toBe(2);
  });

  it('claims everything held on drain, and respects claims and limits', () => {
    const { store } = clocked();
    store.add(part('a', 1, 2, { reference: 1 }), OPTIONS);
    store.add(part('b', 1, 2, { reference: 2 }), OPTIONS);
    expect(store.drain({ leaseMs: 100, limit: 10 }).map((g) => g.concatenation.reference)).toEqual([1, 2]);
    expect(store.drain({ leaseMs: 100, limit: 10 })).toEqual([]);
    expect(store.pending).toBe(0);
  });

  it('refuses bad options and a callback without concatenation', () => {
    expect(() => createMemoryReassemblyStore({ maxPending: 0 })).toThrow(TypeError);
    expect(() => createMemoryReassemblyStore({ maxHandedOver: 1.5 })).toThrow(TypeError);
    const single = decodeCallback(encodeMobileOriginate({ ticketId: 'S-1', source: { address: '1' }, destination: { address: '2' }, message: { type: 'text', content: 'hi' } }, 'json'), 'json');
    if (!single.ok || single.value.kind !== 'inbound-message') throw new Error('bad fixture');
    const whole = single.value;
    expect(() => createMemoryReassemblyStore().add(whole, OPTIONS)).toThrow(TypeError);
  });
});

describe('the in-memory reassembly store under any order of arrivals', () => {
  it('hands each message over exactly once, whole, whatever the order, repeats and failed handlers', () => {
    // Up to 4 messages of 2 to 5 parts; every arrival is a part (repeated at will); a taken
    // message's handler fails at will (restore), and the part that took it is then retried.
    const messages = fc.array(fc.integer({ min: 2, max: 5 }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        messages.chain((totals) => {
          const all = totals.flatMap((total, m) => Array.from({ length: total }, (_, i) => [m, i + 1] as const));
          return fc.record({
            totals: fc.constant(totals),
            order: fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }),
            repeats: fc.array(fc.constantFrom(...all), { maxLength: 8 }),
            failures: fc.array(fc.boolean(), { maxLength: 6 }),
          });
        }),
        ({ totals, order, repeats, failures }) => {
          const store = createMemoryReassemblyStore();
          const text = (m: number, seq: number) => `m${m}p${seq}|`;
          const make = ([m, seq]: readonly [number, number]) => part(text(m, seq), seq, totals[m] as number, { reference: 200 + m, referenceBits: m % 2 === 0 ? 8 : 16 });
          const queue = [...order, ...repeats].map(make);
          const delivered = new Map<number, number>();
          let failed = 0;
          for (let step = 0; step < 200 && queue.length > 0; step++) {
            const arriving = queue.shift() as InboundCallback;
            const outcome = store.add(arriving, { timeoutMs: 60_000, leaseMs: 60_000 });
            if (outcome.status !== 'complete') continue;
            if (failures[failed++] === true) {
              store.restore(outcome.group);
              queue.push(arriving); // the service retries the part whose handler failed
              continue;
            }
            const message = groupMessage(outcome.group);
            const m = outcome.group.concatenation.reference - 200;
            expect(message.text).toBe(Array.from({ length: totals[m] as number }, (_, i) => text(m, i + 1)).join(''));
            expect(store.finish(outcome.group, FINISH)).toBe(true);
            delivered.set(m, (delivered.get(m) ?? 0) + 1);
          }
          expect([...delivered.entries()].sort()).toEqual(totals.map((_, m) => [m, 1]));
          expect(store.pending).toBe(0);
        },
      ),
      { numRuns: runs(300) },
    );
  });
});

describe('createMemoryReassemblyStore: the byte budget', () => {
  it('holds 400 parts of about 64 KB only up to its budget: the others are refused (full), and a completing part is still taken', () => {
    const store = createMemoryReassemblyStore({ maxPendingBytes: 8 * 1024 * 1024 });
    const big = 'x'.repeat(31 * 1024); // a body of about 64 KB (hex)
    // One part decoded, then copied with its own reference and ticket: 400 messages of one part held each.
    const first = part(big, 1, 2, { reference: 0, referenceBits: 16 });
    const copy = (i: number): InboundCallback => ({
      ...first,
      message: { ...first.message, ticketId: `T-${i}` },
      concatenation: { ...(first.concatenation as NonNullable<InboundCallback['concatenation']>), reference: i },
    });
    const outcomes = Array.from({ length: 400 }, (_, i) => store.add(copy(i), OPTIONS).status);
    const held = outcomes.filter((s) => s === 'stored').length;
    expect(held).toBeGreaterThan(0);
    expect(outcomes.slice(held).every((s) => s === 'full')).toBe(true);
    expect(store.pending).toBe(held);
    expect(store.pendingBytes).toBeLessThanOrEqual(8 * 1024 * 1024);
    const group = completed(store.add(part(big, 2, 2, { reference: 0, referenceBits: 16 }), OPTIONS));
    expect(store.finish(group, FINISH)).toBe(true);
    expect(store.add(copy(held), OPTIONS).status).toBe('stored');
    store.clear();
    expect(store.pendingBytes).toBe(0);
  });

  it('refuses a budget that is not a positive integer', () => {
    expect(() => createMemoryReassemblyStore({ maxPendingBytes: 0 })).toThrow(TypeError);
  });
});
