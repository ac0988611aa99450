import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHandlerDeadlines as createDeadlines, type DeadlineTimers } from './handler-deadlines.js';
import { runs } from '../../test/property-runs.js';

/** What a race resolves with when its deadline falls due first. */
const TIMED_OUT: unique symbol = Symbol('timed out');

/** The deadlines, with a race of a promise against one of them: resolves like the promise, or with TIMED_OUT once its deadline fell due. */
function createHandlerDeadlines(timeoutMs: number, timers: DeadlineTimers) {
  const deadlines = createDeadlines(timeoutMs, timers);
  return {
    start: deadlines.start,
    meet: deadlines.meet,
    get pending() {
      return deadlines.pending;
    },
    race<T>(settled: Promise<T>): Promise<T | typeof TIMED_OUT> {
      return new Promise((resolve) => {
        const slot = deadlines.start(() => resolve(TIMED_OUT));
        void settled.then((value) => {
          if (deadlines.meet(slot)) resolve(value);
        });
      });
    },
  };
}

/** Timers driven by hand: a stepping clock, and the armed timers kept in a list. */
function manualTimers() {
  let clock = 0;
  const armed = new Map<number, { at: number; callback: () => void }>();
  let next = 0;
  let created = 0;
  const timers: DeadlineTimers = {
    setTimeout(callback, ms) {
      created++;
      armed.set(++next, { at: clock + ms, callback });
      return next;
    },
    clearTimeout(handle) {
      armed.delete(handle as number);
    },
    now: () => clock,
  };
  /** Moves the clock to `to`, firing the timers due on the way, in order. */
  const advance = async (to: number): Promise<void> => {
    for (;;) {
      const due = [...armed.entries()].filter(([, t]) => t.at <= to).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      armed.delete(due[0]);
      clock = Math.max(clock, due[1].at);
      due[1].callback();
      await Promise.resolve();
    }
    clock = to;
    // Let the settled promises run their continuations.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { timers, advance, armed: () => armed.size, created: () => created };
}

function gate<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createHandlerDeadlines', () => {
  it('resolves with the value when the promise settles first, with TIMED_OUT when the deadline passes first', async () => {
    const { timers, advance } = manualTimers();
    const deadlines = createHandlerDeadlines(100, timers);
    const fast = gate<string>();
    const slow = gate<string>();
    const a = deadlines.race(fast.promise);
    const b = deadlines.race(slow.promise);
    fast.resolve('fast');
    expect(await a).toBe('fast');
    await advance(99);
    let late: unknown = 'pending';
    void b.then((v) => (late = v));
    await advance(99);
    expect(late).toBe('pending');
    await advance(100);
    expect(late).toBe(TIMED_OUT);
    slow.resolve('too late');
    await advance(200);
    expect(await b).toBe(TIMED_OUT);
    expect(deadlines.pending).toBe(0);
  });

  it('keeps one timer however many deadlines run, and none once they are all met', async () => {
    const { timers, advance, armed, created } = manualTimers();
    const deadlines = createHandlerDeadlines(1000, timers);
    const gates = Array.from({ length: 500 }, () => gate<number>());
    const races = gates.map((g) => deadlines.race(g.promise));
    expect(armed()).toBe(1);
    expect(created()).toBe(1);
    expect(deadlines.pending).toBe(500);
    gates.forEach((g, i) => g.resolve(i));
    expect(await Promise.all(races)).toEqual(gates.map((_, i) => i));
    expect(deadlines.pending).toBe(0);
    expect(armed()).toBe(0);
    await advance(5000);
    expect(created()).toBe(1);
  });

  it('calls expire for a deadline started and not met in time, never for one met; meet tells which', async () => {
    const { timers, advance, armed } = manualTimers();
    const deadlines = createHandlerDeadlines(100, timers);
    const expired: string[] = [];
    const a = deadlines.start(() => expired.push('a'));
    await advance(40);
    const b = deadlines.start(() => expired.push('b'));
    const c = deadlines.start(() => expired.push('c'));
    const d = deadlines.start(() => expired.push('d'));
    expect(deadlines.meet(b)).toBe(true);
    expect(deadlines.meet(b)).toBe(false);
    expect(armed()).toBe(1);
    await advance(99);
    expect(expired).toEqual([]);
    await advance(100);
    expect(expired).toEqual(['a']);
    expect(deadlines.meet(a)).toBe(false);
    await advance(140);
    expect(expired).toEqual(['a', 'c', 'd']);
    expect([deadlines.meet(c), deadlines.meet(d), deadlines.pending]).toEqual([false, false, 0]);
  });

  it("keeps an unref'd timer while idle where the runtime has ref and unref, and reuses it", async () => {
    let clock = 0;
    const handles: { callback: () => void; at: number; referenced: boolean; cleared: boolean }[] = [];
    const timers: DeadlineTimers = {
      setTimeout(callback, ms) {
        const handle = {
          callback,
          at: clock + ms,
          referenced: true,
          cleared: false,
          ref() {
            handle.referenced = true;
          },
          unref() {
            handle.referenced = false;
          },
        };
        handles.push(handle);
        return handle;
      },
      clearTimeout(handle) {
        (handle as { cleared: boolean }).cleared = true;
      },
      now: () => clock,
    };
    const deadlines = createHandlerDeadlines(100, timers);
    const first = gate<string>();
    const a = deadlines.race(first.promise);
    first.resolve('a');
    expect(await a).toBe('a');
    expect(handles).toHaveLength(1);
    expect(handles[0]).toMatchObject({ referenced: false, cleared: false });
    clock = 50;
    const second = gate<string>();
    const b = deadlines.race(second.promise);
    // The idle timer is taken again, not a new one.
    expect(handles).toHaveLength(1);
    expect(handles[0]?.referenced).toBe(true);
    // It fires at the first deadline's instant: nothing is due, it is armed again for the second's.
    clock = 100;
    handles[0]?.callback();
    expect(handles).toHaveLength(2);
    expect(handles[1]?.at).toBe(150);
    clock = 150;
    handles[1]?.callback();
    expect(await b).toBe(TIMED_OUT);
    expect(deadlines.pending).toBe(0);
    expect(handles).toHaveLength(2);
  });

  it('times out exactly the races still pending at their own deadline, whatever the order of starts and settlements', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ start: fc.integer({ min: 0, max: 50 }), settleAfter: fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }) }), { minLength: 1, maxLength: 30 }),
        async (plan) => {
          const { timers, advance, armed } = manualTimers();
          const timeoutMs = 100;
          const deadlines = createHandlerDeadlines(timeoutMs, timers);
          // Events in time order: starts and settlements (a settlement at the deadline's instant comes after it).
          type Step = { at: number; order: number; run: () => void };
          const steps: Step[] = [];
          const results: unknown[] = plan.map(() => 'pending');
          plan.forEach((p, i) => {
            const g = gate<number>();
            steps.push({ at: p.start, order: 0, run: () => void deadlines.race(g.promise).then((v) => (results[i] = v)) });
            if (p.settleAfter !== undefined) steps.push({ at: p.start + p.settleAfter, order: 1, run: () => g.resolve(i) });
          });
          steps.sort((a, b) => a.at - b.at || a.order - b.order);
          let clock = 0;
          for (const step of steps) {
            if (step.at > clock) await advance(step.at);
            clock = step.at;
            step.run();
            for (let k = 0; k < 5; k++) await Promise.resolve();
          }
          await advance(1000);
          plan.forEach((p, i) => {
            const timedOut = p.settleAfter === undefined || p.settleAfter >= timeoutMs;
            expect(results[i], `race ${i}`).toBe(timedOut ? TIMED_OUT : i);
          });
          expect(deadlines.pending).toBe(0);
          expect(armed()).toBe(0);
        },
      ),
      { numRuns: runs(60) },
    );
  });

  it('expires exactly the deadlines not met by their time over thousands of starts, meets and waits (its arrays reused, compacted and let go)', async () => {
    type Op = { kind: 'start' | 'burst' | 'meet' | 'wait'; n: number };
    const op = fc.record({
      kind: fc.constantFrom('start', 'start', 'start', 'meet', 'meet', 'wait', 'wait', 'start', 'meet', 'wait', 'wait', 'burst'),
      n: fc.integer({ min: 0, max: 4000 }),
    }) as fc.Arbitrary<Op>;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 300, maxLength: 1000 }), fc.integer({ min: 1, max: 50 }), async (ops, timeoutMs) => {
        const { timers, advance, armed } = manualTimers();
        const deadlines = createDeadlines(timeoutMs, timers);
        let clock = 0;
        // The model: every deadline started, its due time and what became of it; what went wrong, if anything.
        const started: { slot: number; due: number; state: 'live' | 'met' | 'expired' }[] = [];
        const problems: string[] = [];
        let live = 0;
        // Started in order of their due times: those before `checked` are known not to be live.
        let checked = 0;
        const start = (): void => {
          const entry = { slot: -1, due: clock + timeoutMs, state: 'live' as 'live' | 'met' | 'expired' };
          entry.slot = deadlines.start(() => {
            if (entry.state !== 'live' || clock < entry.due) problems.push(`slot ${entry.slot} expired while ${entry.state} at ${clock}, due ${entry.due}`);
            entry.state = 'expired';
            live--;
          });
          started.push(entry);
          live++;
        };
        for (const { kind, n } of ops) {
          if (kind === 'start') start();
          // Many at once (past a thousand, the queue is compacted as its oldest fall due).
          else if (kind === 'burst') for (let k = 0; k < n % 1500; k++) start();
          else if (kind === 'meet' && started.length > 0) {
            // Mostly recent deadlines, sometimes any of them (met, expired or live).
            const entry = started[n % 3 === 0 ? n % started.length : Math.max(0, started.length - 1 - (n % 40))]!;
            if (deadlines.meet(entry.slot) !== (entry.state === 'live')) problems.push(`meet of slot ${entry.slot} (${entry.state}) answered wrong`);
            if (entry.state === 'live') {
              entry.state = 'met';
              live--;
            }
          } else if (kind === 'wait') {
            clock += n % (timeoutMs * 2);
            await advance(clock);
            for (; checked < started.length && started[checked]!.due <= clock; checked++) {
              if (started[checked]!.state === 'live') problems.push(`slot ${started[checked]!.slot} live past its time`);
            }
          }
          if (deadlines.pending !== live) problems.push(`${deadlines.pending} pending, ${live} live`);
          if (problems.length > 0) break;
        }
        clock += timeoutMs;
        await advance(clock);
        expect(problems).toEqual([]);
        expect(started.every((entry) => entry.state !== 'live')).toBe(true);
        expect(deadlines.pending).toBe(0);
        expect(armed()).toBe(0);
      }),
      { numRuns: runs(40) },
    );
  });
});
