import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { encodeMobileOriginate } from '../mobile-originate/mobile-originate.js';
import { bytesToHex, encodeHex } from '../text/hex.js';
import { buildUserDataHeader } from '../text/udh.js';
import { decodeCallback, type InboundCallback } from './decode-callback.js';
import { createInboundReassembler, singleInboundMessage, type InboundMessage, type ReassemblerTimers } from './inbound-reassembler.js';

function inbound(path: string): InboundCallback {
  const result = decodeCallback(loadFixture(path), path.endsWith('.json') ? 'json' : 'xml');
  if (!result.ok || result.value.kind !== 'inbound-message') throw new Error(`${path} is not an inbound message`);
  return result.value;
}

/** One part of a GSM multipart message, built with core's UDH encoder. */
interface PartOptions {
  readonly reference?: number;
  readonly referenceBits?: 8 | 16;
  readonly from?: string;
  readonly ticket?: string;
}

function part(text: string, sequence: number, total: number, { reference = 7, referenceBits = 8, from = '12065551234', ticket }: PartOptions = {}): InboundCallback {
  const ticketId = `${ticket ?? `T${reference}${sequence}${from}`}-X`;
  const header = bytesToHex(buildUserDataHeader({ concatenation: { reference, total, sequence, referenceBits } }));
  const body = encodeMobileOriginate(
    { ticketId, source: { address: from }, destination: { address: '24273' }, message: { type: 'hexEncodedText', udh: true, content: header + encodeHex(text, 'GSM') } },
    'json',
  );
  const result = decodeCallback(body, 'json');
  if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('bad part');
  return result.value;
}

/** Timers run by hand. */
function manualTimers(): ReassemblerTimers & { now(): number; advance(ms: number): void; armed(): number } {
  let now = 0;
  let id = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  return {
    setTimeout(fn, ms) {
      pending.set(++id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
    now: () => now,
    advance(ms) {
      now += ms;
      for (const [key, t] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > now) continue;
        pending.delete(key);
        t.fn();
      }
    },
    armed: () => pending.size,
  };
}

/** A part with a submittedDate, through the callback decoder. */
function datedPart(text: string, sequence: number, total: number, submittedDate: string): InboundCallback {
  const header = bytesToHex(buildUserDataHeader({ concatenation: { reference: 9, total, sequence } }));
  const body = encodeMobileOriginate(
    {
      submittedDate,
      ticketId: `D${sequence}-X`,
      source: { address: '12065551234' },
      destination: { address: '24273' },
      message: { type: 'hexEncodedText', udh: true, content: header + encodeHex(text, 'GSM') },
    },
    'xml',
  );
  const result = decodeCallback(body, 'xml');
  if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('bad part');
  return result.value;
}

describe('submitted dates of multipart messages', () => {
  it('the message is dated by its earliest part, compared as instants', () => {
    // Part 2's text sorts first, but part 1 (22:00 UTC on the 13th) came earlier than part 2 (23:30 UTC).
    const one = datedPart('Hello ', 1, 2, '2024-03-14T08:00:00+10:00');
    const two = datedPart('world', 2, 2, '2024-03-13T18:30:00-05:00');
    for (const [first, second] of [
      [one, two],
      [two, one],
    ] as const) {
      const reassembler = createInboundReassembler();
      reassembler.add(first);
      const done = reassembler.add(second);
      if (done.status !== 'complete') throw new Error('expected complete');
      expect(done.message.submittedDate).toBe('2024-03-14T08:00:00+10:00');
      expect(done.message.submittedInstant).toBe('2024-03-13T22:00:00.000Z');
      expect(done.message.text).toBe('Hello world');
      reassembler.close();
    }
  });

  it('a single-part message keeps its text and gives its instant', () => {
    const message = singleInboundMessage(inbound('timestamps/inbound-offset.xml'));
    expect(message.submittedDate).toBe('2015-08-29T15:10:03.029-05:00');
    expect(message.submittedInstant).toBe('2015-08-29T20:10:03.029Z');
  });
});

describe('createInboundReassembler', () => {
  it('joins 8-bit parts that arrive out of order into the sender\'s text', () => {
    const reassembler = createInboundReassembler();
    expect(reassembler.add(inbound('mobile-originate/udh8-part2.xml'))).toEqual({ status: 'stored', received: 1, total: 2 });
    const done = reassembler.add(inbound('mobile-originate/udh8-part1.xml'));
    if (done.status !== 'complete') throw new Error('expected complete');
    expect(done.message).toMatchObject({
      ticketId: '31QX9-0314A-0000A-77PQR',
      ticketIds: ['31QX9-0314A-0000A-77PQR', '31QX9-0314A-0000B-77PQS'],
      submittedDate: '2024-03-14T11:00:01.000Z',
      text: 'Hello world',
      charset: 'GSM',
      content: '48656C6C6F20776F726C64',
      concatenation: { reference: 0x4a, referenceBits: 8, total: 2 },
      complete: true,
      missingParts: [],
    });
    expect(done.message.parts).toHaveLength(2);
    expect(reassembler.pending).toBe(0);
    reassembler.close();
  });

  it('joins 16-bit UTF-16 parts and guesses the charset', () => {
    const reassembler = createInboundReassembler();
    reassembler.add(inbound('webhooks/inbound-utf16-ref16-part1.json'));
    const done = reassembler.add(inbound('webhooks/inbound-utf16-ref16-part2.json'));
    expect(done.status === 'complete' && done.message.text).toBe('Привет! Это первая часть и вторая часть сообщения.');
    expect(done.status === 'complete' && done.message.concatenation).toEqual({ reference: 0xbeef, referenceBits: 16, total: 2 });
    reassembler.close();
  });

  it('decodes in the charset named instead of guessing', () => {
    const reassembler = createInboundReassembler({ charset: 'Latin-1' });
    reassembler.add(inbound('mobile-originate/udh8-part1.xml'));
    const done = reassembler.add(inbound('mobile-originate/udh8-part2.xml'));
    expect(done.status === 'complete' && done.message.charset).toBe('Latin-1');
    reassembler.close();
  });

  it('keeps messages of different senders with the same reference apart', () => {
    const reassembler = createInboundReassembler();
    reassembler.add(part('A1', 1, 2, { from: '11111111111' }));
    reassembler.add(part('B1', 1, 2, { from: '22222222222' }));
    const a = reassembler.add(part('A2', 2, 2, { from: '11111111111' }));
    const b = reassembler.add(part('B2', 2, 2, { from: '22222222222' }));
    expect(a.status === 'complete' && a.message.text).toBe('A1A2');
    expect(b.status === 'complete' && b.message.text).toBe('B1B2');
    reassembler.close();
  });

  it('keeps the first of two parts with the same number', () => {
    const reassembler = createInboundReassembler();
    reassembler.add(part('first', 1, 3, { ticket: 'one' }));
    expect(reassembler.add(part('again', 1, 3, { ticket: 'two' }))).toEqual({ status: 'duplicate-part' });
    reassembler.add(part('-b', 2, 3));
    const done = reassembler.add(part('-c', 3, 3));
    expect(done.status === 'complete' && done.message.text).toBe('first-b-c');
    reassembler.close();
  });

  it('reports parts whose siblings do not come in time as an incomplete message', () => {
    const timers = manualTimers();
    const orphans: InboundMessage[] = [];
    const reassembler = createInboundReassembler({ timeoutMs: 1000, timers, now: timers.now, onOrphan: (m) => orphans.push(m) });
    reassembler.add(part('one ', 1, 3));
    timers.advance(500);
    reassembler.add(part('three', 3, 3));
    timers.advance(499);
    expect(orphans).toHaveLength(0);
    timers.advance(1);
    expect(orphans).toHaveLength(1);
    expect(orphans[0]).toMatchObject({ complete: false, missingParts: [2], text: 'one three' });
    expect(reassembler.pending).toBe(0);
    expect(timers.armed()).toBe(0);
  });

  it('reports the oldest incomplete message when more than maxPending are held', () => {
    const orphans: InboundMessage[] = [];
    const reassembler = createInboundReassembler({ maxPending: 2, onOrphan: (m) => orphans.push(m) });
    reassembler.add(part('a', 1, 2, { reference: 1 }));
    reassembler.add(part('b', 1, 2, { reference: 2 }));
    reassembler.add(part('c', 1, 2, { reference: 3 }));
    expect(orphans.map((m) => m.text)).toEqual(['a']);
    expect(reassembler.pending).toBe(2);
    reassembler.close();
  });

  it('puts the other parts back when the handler of the whole message failed', () => {
    const reassembler = createInboundReassembler();
    reassembler.add(part('x', 1, 2));
    const last = part('y', 2, 2);
    const first = reassembler.add(last);
    if (first.status !== 'complete') throw new Error('expected complete');
    first.restore();
    expect(reassembler.pending).toBe(1);
    const again = reassembler.add(last);
    expect(again.status === 'complete' && again.message.text).toBe('xy');
    reassembler.close();
  });

  it('reports everything still held on flush, and nothing on close', () => {
    const orphans: InboundMessage[] = [];
    const reassembler = createInboundReassembler({ onOrphan: (m) => orphans.push(m) });
    reassembler.add(part('a', 1, 2, { reference: 1 }));
    reassembler.flush();
    reassembler.add(part('b', 1, 2, { reference: 2 }));
    reassembler.close();
    expect(orphans.map((m) => m.missingParts)).toEqual([[2]]);
    expect(reassembler.pending).toBe(0);
  });

  it('refuses a callback without a concatenation element', () => {
    const reassembler = createInboundReassembler();
    expect(() => reassembler.add(inbound('mobile-originate/text.json'))).toThrow(TypeError);
    reassembler.close();
  });
});

describe('singleInboundMessage', () => {
  it('keeps plain text as it came', () => {
    expect(singleInboundMessage(inbound('mobile-originate/text.json'))).toMatchObject({ text: 'STOP & unsubscribe 👋', complete: true, parts: [expect.anything()] });
  });

  it('decodes hex text with control characters', () => {
    expect(singleInboundMessage(inbound('mobile-originate/content-element.xml')).text).toBe('Hello\r\nworld');
  });

  it('gives binary content no text, and keeps its header', () => {
    const message = singleInboundMessage(inbound('webhooks/inbound-wap-port-binary.xml'));
    expect(message.text).toBeUndefined();
    expect(message.header?.ports?.destination).toBe(2948);
  });
});

describe('GSM text of inbound messages', () => {
  it('decodes a multipart message in the national tables of its header, and reports the receiver substitutions', () => {
    const tables = { locking: 'turkish', single: 'turkish' } as const;
    const make = (hex: string, sequence: number): InboundCallback => {
      const header = bytesToHex(buildUserDataHeader({ concatenation: { reference: 9, total: 2, sequence }, national: { locking: 1, single: 1 } }));
      const body = encodeMobileOriginate(
        { ticketId: `TR${sequence}-X`, source: { address: '905551234567' }, destination: { address: '24273' }, message: { type: 'hexEncodedText', udh: true, content: header + hex } },
        'json',
      );
      const result = decodeCallback(body, 'json');
      if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('bad part');
      return result.value;
    };
    const reassembler = createInboundReassembler();
    reassembler.add(make(encodeHex('Şişli, ', 'GSM', { nationalTables: tables }), 1));
    const done = reassembler.add(make(encodeHex('İstanbul', 'GSM', { nationalTables: tables }) + '1B1B', 2));
    expect(done.status).toBe('complete');
    if (done.status !== 'complete') return;
    expect(done.message).toMatchObject({
      text: 'Şişli, İstanbul ',
      charset: 'GSM',
      nationalTables: tables,
      substitutions: [{ kind: 'escape-escape', index: 15, septets: '1B1B', char: ' ' }],
    });
    reassembler.close();
  });

  it('decodes a single-part message the same way', () => {
    const body = encodeMobileOriginate(
      { ticketId: 'S1-X', source: { address: '12065551234' }, destination: { address: '24273' }, message: { type: 'hexEncodedText', content: '4F4B1B' } },
      'json',
    );
    const result = decodeCallback(body, 'json');
    if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('bad message');
    expect(singleInboundMessage(result.value)).toMatchObject({
      text: 'OK',
      charset: 'GSM',
      substitutions: [{ kind: 'trailing-escape', index: 2, septets: '1B', char: '' }],
    });
  });
});
