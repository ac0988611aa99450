import { DELIVERY_STATES, explain } from '@smsv4/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adminApiBase,
  buildComposeBody,
  buildFault,
  buildInboundBody,
  buildScenario,
  deliveryTone,
  describeChanges,
  describeEstimate,
  describeScenario,
  formatClock,
  formatDateTime,
  formatDuration,
  matchesFilter,
  outcomeTone,
  parseIntegerField,
  parseSseBuffer,
  serviceBase,
  summarizeMetrics,
  truncate,
} from './client-helpers.js';
import { createDashboardPageConfig } from './page-config.js';

describe('parseSseBuffer', () => {
  it('reads change events and skips ping comments', () => {
    const stream = ': ping\n\nevent: change\ndata: {"kind":"message"}\n\n: ping\n\nevent: change\ndata: {"kind":"reset"}\n\n';
    expect(parseSseBuffer(stream)).toEqual({
      events: [
        { event: 'change', data: '{"kind":"message"}' },
        { event: 'change', data: '{"kind":"reset"}' },
      ],
      rest: '',
    });
  });

  it('keeps an unfinished event for the next chunk', () => {
    const first = parseSseBuffer('event: change\ndata: {"kind":"inb');
    expect(first.events).toEqual([]);
    const second = parseSseBuffer(`${first.rest}ound"}\n\n`);
    expect(second.events).toEqual([{ event: 'change', data: '{"kind":"inbound"}' }]);
  });

  it('accepts CRLF and CR line ends, joins data lines and defaults the event name', () => {
    expect(parseSseBuffer('data: a\r\ndata: b\r\n\r\nevent:change\rdata:x\r\r: ping\r\r').events).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'change', data: 'x' },
    ]);
  });

  it('holds a trailing CR that may be half of a CRLF', () => {
    const first = parseSseBuffer('event: change\r\ndata: 1\r\n\r');
    expect(first.events).toEqual([]);
    expect(parseSseBuffer(`${first.rest}\n`).events).toEqual([{ event: 'change', data: '1' }]);
  });

  it('yields the same events however the stream is cut into chunks', () => {
    const event = fc.record({
      event: fc.constantFrom('change', 'message'),
      data: fc.string({ unit: fc.constantFrom('a', '{', '"', ':', ' ', 'é'), maxLength: 12 }),
      ping: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 6 }), fc.array(fc.nat(200), { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r'), (events, cuts, eol) => {
        const text = events.map((e) => `${e.ping ? `: ping${eol}${eol}` : ''}event: ${e.event}${eol}data: ${e.data}${eol}${eol}`).join('');
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const seen: { event: string; data: string }[] = [];
        let rest = '';
        let from = 0;
        // The stream goes on (pings every 15 s): a final ping lets a held trailing CR through.
        const stream = `${text}: ping${eol}${eol}`;
        for (const point of [...points, stream.length]) {
          const parsed = parseSseBuffer(rest + stream.slice(from, point));
          seen.push(...parsed.events);
          rest = parsed.rest;
          from = point;
        }
        expect(seen).toEqual(events.map((e) => ({ event: e.event, data: e.data })));
      }),
    );
  });
});

describe('adminApiBase and serviceBase', () => {
  it('resolve the admin API next to the page, behind any prefix', () => {
    expect(adminApiBase('http://127.0.0.1:4010/__sandbox/')).toBe('http://127.0.0.1:4010/__sandbox/api/');
    expect(adminApiBase('http://127.0.0.1:4010/__sandbox')).toBe('http://127.0.0.1:4010/__sandbox/api/');
    expect(adminApiBase('https://example.test/proxy/x/__sandbox/?tab=1#token=abc')).toBe('https://example.test/proxy/x/__sandbox/api/');
  });

  it('give the SMS API base without the __sandbox segment', () => {
    expect(serviceBase('http://127.0.0.1:4010/__sandbox/')).toBe('http://127.0.0.1:4010');
    expect(serviceBase('https://example.test/proxy/__sandbox/?a=1')).toBe('https://example.test/proxy');
    expect(serviceBase('http://h/dash/index.html')).toBe('http://h/dash');
  });
});

describe('formatting', () => {
  it('formats times of day and dates of ISO timestamps', () => {
    expect(formatClock('2025-03-04T05:06:07.089Z')).toBe('05:06:07.089');
    expect(formatClock('2025-03-04T05:06:07Z')).toBe('05:06:07');
    expect(formatClock('not a date')).toBe('not a date');
    expect(formatClock(undefined)).toBe('');
    expect(formatDateTime('2025-03-04T05:06:07.089Z')).toBe('2025-03-04 05:06:07 UTC');
    expect(formatDateTime('2025-03-04T05:06:07+02:00')).toBe('2025-03-04 05:06:07 +02:00');
    expect(formatDateTime('yesterday')).toBe('yesterday');
  });

  it('formats durations for people', () => {
    expect(formatDuration(12.4)).toBe('12 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(200_000)).toBe('3 min 20 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
    expect(formatDuration(undefined)).toBe('');
    expect(formatDuration(-1)).toBe('');
  });

  it('truncates by code points, never splitting a surrogate pair', () => {
    expect(truncate('hello', 5)).toBe('hello');
    expect(truncate('hello world', 6)).toBe('hello…');
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
    expect(truncate(undefined, 3)).toBe('');
  });
});

describe('tones', () => {
  const { deliveryOutcomes } = createDashboardPageConfig();

  it('colours delivery codes from the core catalogue', () => {
    for (const entry of Object.values(DELIVERY_STATES)) {
      if (!entry) continue;
      const expected = entry.outcome === 'delivered' ? 'ok' : entry.outcome === 'pending' ? 'pending' : 'fail';
      expect(deliveryTone(entry.code, deliveryOutcomes)).toBe(expected);
    }
    expect(deliveryTone(undefined, deliveryOutcomes)).toBe('pending');
    expect(deliveryTone(99_999, deliveryOutcomes)).toBe('fail');
  });

  it('colours admin outcomes', () => {
    expect(outcomeTone('delivered')).toBe('ok');
    expect(outcomeTone('accepted')).toBe('ok');
    expect(outcomeTone('gave-up')).toBe('fail');
    expect(outcomeTone('failed')).toBe('fail');
    expect(outcomeTone('pending-retry')).toBe('warn');
    expect(outcomeTone('retrying')).toBe('warn');
    expect(outcomeTone('pending')).toBe('pending');
    expect(outcomeTone('no-url')).toBe('neutral');
  });
});

describe('matchesFilter', () => {
  it('matches any field case-insensitively and everything for an empty filter', () => {
    expect(matchesFilter(['44101-0922I-13413-21GDL', '14155550100'], '0922i')).toBe(true);
    expect(matchesFilter(['abc', undefined, 4], '4')).toBe(true);
    expect(matchesFilter(['abc', { variables: { user: { NAME: 'Zoë' } } }], 'zoë')).toBe(true);
    expect(matchesFilter(['abc'], 'xyz')).toBe(false);
    expect(matchesFilter([], '  ')).toBe(true);
  });
});

describe('parseIntegerField', () => {
  it('reads empty, valid and invalid numbers', () => {
    expect(parseIntegerField('', 'Delay', 0)).toEqual({ ok: true, value: undefined });
    expect(parseIntegerField(' 250 ', 'Delay', 0)).toEqual({ ok: true, value: 250 });
    expect(parseIntegerField('1.5', 'Delay', 0)).toEqual({ ok: false, error: 'Delay must be a whole number.' });
    expect(parseIntegerField('-1', 'Delay', 0)).toEqual({ ok: false, error: 'Delay must be at least 0.' });
    expect(parseIntegerField('300', 'Part', 1, 255)).toEqual({ ok: false, error: 'Part must be between 1 and 255.' });
  });
});

describe('buildInboundBody', () => {
  it('builds a text message with defaults left to the sandbox', () => {
    expect(buildInboundBody({ from: ' 447700900123 ', to: '12345', mode: 'text', content: 'Hi there', charset: '', multipart: true, referenceBits: '8', url: '', format: '' })).toEqual({
      ok: true,
      value: { from: '447700900123', to: '12345', text: 'Hi there', referenceBits: 8 },
    });
  });

  it('builds hex, binary, 16-bit reference, URL, account and format members', () => {
    expect(
      buildInboundBody({ accountId: 'sandbox', from: '1', to: '2', mode: 'hex', content: '48 65\n6C', charset: 'GSM', multipart: true, referenceBits: '16', url: 'http://127.0.0.1:9/in', format: 'json' }),
    ).toEqual({
      ok: true,
      value: { accountId: 'sandbox', from: '1', to: '2', hex: '48656C', charset: 'GSM', referenceBits: 16, url: 'http://127.0.0.1:9/in', format: 'json' },
    });
    expect(buildInboundBody({ from: '1', to: '2', mode: 'hex', content: '00FF', binary: true, udh: true, charset: 'GSM', multipart: false })).toEqual({
      ok: true,
      value: { from: '1', to: '2', hex: '00FF', binary: true, udh: true, multipart: false },
    });
    // Binary and UDH belong to hex content only.
    expect(buildInboundBody({ from: '1', to: '2', mode: 'text', content: 'hi', binary: true, udh: true })).toEqual({ ok: true, value: { from: '1', to: '2', text: 'hi' } });
  });

  it('keeps the text exactly as typed (spaces, markup)', () => {
    const built = buildInboundBody({ from: '1', to: '2', mode: 'text', content: '  <img src=x onerror=alert(1)>  ' });
    expect(built.ok && built.value.text).toBe('  <img src=x onerror=alert(1)>  ');
  });

  it('says what is missing', () => {
    expect(buildInboundBody({ to: '2', content: 'x' })).toEqual({ ok: false, error: 'From (the handset number) is required.' });
    expect(buildInboundBody({ from: '1', content: 'x' })).toEqual({ ok: false, error: 'To (your originator) is required.' });
    expect(buildInboundBody({ from: '1', to: '2', mode: 'text', content: '' })).toEqual({ ok: false, error: 'Text is required.' });
    expect(buildInboundBody({ from: '1', to: '2', mode: 'hex', content: ' \n' })).toEqual({ ok: false, error: 'Hex content is required.' });
  });
});

describe('buildScenario', () => {
  it('builds every kind of the admin contract', () => {
    expect(buildScenario({ destination: '', kind: 'delivered' })).toEqual({ ok: true, value: { destination: '*', scenario: { kind: 'delivered' } } });
    expect(buildScenario({ destination: '14155550100', kind: 'delivered', delayMs: '50' })).toEqual({
      ok: true,
      value: { destination: '14155550100', scenario: { kind: 'delivered', delayMs: 50 } },
    });
    expect(buildScenario({ kind: 'delayed', delayMs: '60000' })).toEqual({ ok: true, value: { destination: '*', scenario: { kind: 'delayed', delayMs: 60_000 } } });
    expect(buildScenario({ kind: 'expired', delayMs: '5' })).toEqual({ ok: true, value: { destination: '*', scenario: { kind: 'expired' } } });
    expect(buildScenario({ kind: 'fail-part', segmentNumber: '2' })).toEqual({ ok: true, value: { destination: '*', scenario: { kind: 'fail-part', segmentNumber: 2 } } });
    expect(buildScenario({ kind: 'fail-part', segmentNumber: '1', code: '607' })).toEqual({
      ok: true,
      value: { destination: '*', scenario: { kind: 'fail-part', segmentNumber: 1, code: 607 } },
    });
    expect(buildScenario({ kind: 'no-receipt' })).toEqual({ ok: true, value: { destination: '*', scenario: { kind: 'no-receipt' } } });
    expect(buildScenario({ kind: 'no-receipt', segmentNumber: '3' })).toEqual({ ok: true, value: { destination: '*', scenario: { kind: 'no-receipt', segmentNumber: 3 } } });
    expect(buildScenario({ kind: 'rejected', code: '351' })).toEqual({ ok: true, value: { destination: '*', scenario: { kind: 'rejected', code: 351 } } });
  });

  it('refuses incomplete or malformed scenarios', () => {
    expect(buildScenario({ kind: 'delayed' })).toEqual({ ok: false, error: 'A delayed scenario needs a delay.' });
    expect(buildScenario({ kind: 'fail-part' })).toEqual({ ok: false, error: 'A failing-part scenario needs a part number.' });
    expect(buildScenario({ kind: 'rejected' })).toEqual({ ok: false, error: 'A rejected scenario needs a code.' });
    expect(buildScenario({ kind: 'rejected', code: 'abc' })).toEqual({ ok: false, error: 'Code must be a whole number.' });
    expect(buildScenario({ kind: 'fail-part', segmentNumber: '0' })).toEqual({ ok: false, error: 'Part must be between 1 and 255.' });
    expect(buildScenario({ kind: 'explode' })).toEqual({ ok: false, error: 'Choose a scenario.' });
  });

  it('describes scenarios in one line', () => {
    expect(describeScenario({ kind: 'fail-part', segmentNumber: 2, code: 811 })).toBe('fail-part · part 2 · code 811');
    expect(describeScenario({ kind: 'delayed', delayMs: 90_000 })).toBe('delayed · after 1 min 30 s (simulated)');
    expect(describeScenario(null)).toBe('null');
  });
});

describe('buildFault', () => {
  it('builds faults with a default count of one', () => {
    expect(buildFault({ operation: 'send', kind: '1010', count: '' })).toEqual({ ok: true, value: { operation: 'send', kind: '1010', count: 1 } });
    expect(buildFault({ operation: 'invokeService', kind: '1000', count: '3' })).toEqual({ ok: true, value: { operation: 'invokeService', kind: '1000', count: 3 } });
    expect(buildFault({ operation: 'status', kind: 'latency', count: '2', latencyMs: '1500' })).toEqual({
      ok: true,
      value: { operation: 'status', kind: 'latency', count: 2, latencyMs: 1500 },
    });
    expect(buildFault({ operation: 'lookup', kind: 'latency', latencyMs: '' })).toEqual({ ok: true, value: { operation: 'lookup', kind: 'latency', count: 1 } });
    expect(buildFault({ operation: 'lookup', kind: 'drop-after-accept' })).toEqual({ ok: true, value: { operation: 'lookup', kind: 'drop-after-accept', count: 1 } });
  });

  it('refuses what is not a fault of the admin contract', () => {
    expect(buildFault({ operation: 'delete', kind: '1010' })).toEqual({ ok: false, error: 'Choose an operation.' });
    expect(buildFault({ operation: 'send', kind: '500' })).toEqual({ ok: false, error: 'Choose a fault.' });
    expect(buildFault({ operation: 'send', kind: 'latency', latencyMs: 'soon' })).toEqual({ ok: false, error: 'Latency must be a whole number.' });
    expect(buildFault({ operation: 'send', kind: '1010', count: '0' })).toEqual({ ok: false, error: 'Count must be at least 1.' });
  });
});

describe('describeChanges', () => {
  const zero = { messages: 0, callbacks: 0, inbound: 0, invocations: 0 };

  it('summarises the first load', () => {
    expect(describeChanges(undefined, { messages: 1, callbacks: 2, inbound: 0, invocations: 1 })).toBe(
      'Loaded 1 message, 2 callback attempts, 0 inbound messages, 1 invocation.',
    );
  });

  it('announces only what was added', () => {
    expect(describeChanges(zero, { messages: 2, callbacks: 1, inbound: 0, invocations: 0 })).toBe('2 new messages, 1 new callback attempt.');
    expect(describeChanges({ ...zero, inbound: 1 }, { ...zero, inbound: 1 })).toBe('');
    expect(describeChanges({ ...zero, messages: 3 }, zero)).toBe('Sandbox cleared.');
  });
});

describe('describeEstimate', () => {
  it('words a GSM text: encoding, parts and characters left', () => {
    expect(describeEstimate(explain('Hello'))).toEqual({ encoding: 'GSM 7-bit', parts: '1 part', left: '155 characters left (of 160)', forced: '', substitutes: '' });
    // An extension character ({) costs two.
    expect(describeEstimate(explain('{}')).left).toBe('156 characters left (of 160)');
  });

  it('says how much is left in the last part of a multipart text', () => {
    expect(describeEstimate(explain('a'.repeat(200)))).toMatchObject({ parts: '2 parts', left: '106 characters left in part 2 (of 153)' });
  });

  it('names what forces UCS-2, and what GSM substitutes would save', () => {
    const summary = describeEstimate(explain(`Your code – valid ${'x'.repeat(60)}`));
    expect(summary).toMatchObject({ encoding: 'UCS-2', parts: '2 parts', forced: 'UCS-2 because of “–” U+2013' });
    expect(summary.left).toMatch(/UCS-2 characters left in part 2 \(of 67\)$/);
    expect(summary.substitutes).toBe('With GSM substitutes (– → -) it is GSM 7-bit: 1 part, 1 fewer.');
  });

  it('counts repeats and says when no substitute exists', () => {
    const summary = describeEstimate(explain('Hi 😀😀'));
    expect(summary.forced).toBe('UCS-2 because of “😀” U+1F600 ×2');
    expect(summary.substitutes).toBe('No GSM substitute for “😀” U+1F600.');
  });
});

describe('buildComposeBody', () => {
  it('builds the mobileTerminate of the form, in parts when asked, with a receipt URL when given', () => {
    expect(buildComposeBody({ accountId: 'demo', destination: ' 14155550100 ', content: 'Hi', segment: 'on', url: 'http://127.0.0.1:9/r' })).toEqual({
      ok: true,
      value: {
        accountId: 'demo',
        mobileTerminate: {
          destination: { address: '14155550100' },
          message: { type: 'text', content: 'Hi', mlc: 'segment' },
          delivery: { receiptRequested: 'final', url: 'http://127.0.0.1:9/r' },
        },
      },
    });
    expect(buildComposeBody({ destination: '1', content: 'Hi' })).toEqual({ ok: true, value: { mobileTerminate: { destination: { address: '1' }, message: { type: 'text', content: 'Hi' } } } });
  });

  it('asks for what is missing', () => {
    expect(buildComposeBody({ content: 'Hi' })).toEqual({ ok: false, error: 'To (the destination number) is required.' });
    expect(buildComposeBody({ destination: '1' })).toEqual({ ok: false, error: 'Text is required.' });
  });
});

describe('summarizeMetrics', () => {
  it('words the counters: sends, final parts by delivered or failed, callback attempts', () => {
    expect(summarizeMetrics(undefined)).toEqual({ sends: '—', parts: '—', callbacks: '—' });
    expect(
      summarizeMetrics({
        requests: [],
        sendsAccepted: 3,
        sendsRejected: 1,
        finalParts: { '4': 2, '0': 1, '811': 1 },
        callbacks: { receipt: { delivered: 3, 'pending-retry': 1 }, inbound: { delivered: 1, 'gave-up': 1 } },
        inbound: 2,
      }),
    ).toEqual({ sends: '3 accepted · 1 rejected', parts: '3 delivered · 1 failed', callbacks: '4 delivered · 1 failed · 1 given up' });
  });
});
