/**
 * The manual clock of a test sandbox: core's `createManualClock` under a wrapper that knows when
 * each timer is due, so that moving time can stop at every timer and wait for the callbacks it
 * starts to be answered before going on (a retry due within the same step then happens on time).
 */
import { createManualClock, type ManualClock } from '@smsv4/sandbox';

/** A manual clock that settles the sandbox's callbacks at every step. */
export interface SteppingClock extends ManualClock {
  /** The due time of the earliest timer, if any. */
  nextDue(): number | undefined;
}

/** The most timers one `advance` runs (a timer that keeps re-arming itself at once would loop forever). */
const MAX_STEPS = 100_000;

/** Creates the clock; `settle` waits for the work the timers started. */
export function createSteppingClock(start: number, settle: () => Promise<void>): SteppingClock {
  const inner = createManualClock({ start });
  const due = new Map<unknown, number>();
  const nextDue = (): number | undefined => {
    let best: number | undefined;
    for (const time of due.values()) if (best === undefined || time < best) best = time;
    return best;
  };
  const advanceTo = async (target: number): Promise<void> => {
    if (!Number.isFinite(target)) throw new TypeError(`the clock cannot move to ${target}`);
    for (let step = 0; ; step++) {
      await settle();
      const next = nextDue();
      if (next === undefined || next > target) break;
      if (step >= MAX_STEPS) throw new Error(`more than ${MAX_STEPS} timers fell due before ${new Date(target).toISOString()}: a timer keeps re-arming itself`);
      await inner.advanceTo(next);
    }
    await inner.advanceTo(target);
    await settle();
  };
  return {
    now: () => inner.now(),
    setTimeout(fn, ms) {
      const box: { handle?: unknown } = {};
      box.handle = inner.setTimeout(() => {
        due.delete(box.handle);
        fn();
      }, ms);
      due.set(box.handle, inner.now() + Math.max(0, ms));
      return box.handle;
    },
    clearTimeout(handle) {
      due.delete(handle);
      inner.clearTimeout(handle);
    },
    advance(ms) {
      if (!(Number.isFinite(ms) && ms >= 0)) throw new TypeError(`advance takes milliseconds of at least 0, got ${ms}`);
      return advanceTo(inner.now() + ms);
    },
    advanceTo,
    pending: () => inner.pending(),
    nextDue,
  };
}
