/**
 * The handlers' deadlines, kept by one timer for all of them. Every deadline of a receiver is the
 * same length from its start, so they fall due in the order they were set: a queue, with one timer
 * armed for its oldest live entry. A handler that settles in time only clears its slot. When no
 * deadline is left, the timer is unref'd where the runtime allows it (Node, Bun, Deno: it no longer
 * keeps the process alive, and the next request reuses it instead of arming another), and cleared
 * elsewhere: an idle receiver holds no timer that keeps its process alive.
 */

/** The timers and the clock the deadlines use. */
export interface DeadlineTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Milliseconds, on the same time line as the timers. */
  now(): number;
}

/** The runtime's timers (not unref'd: a pending handler's deadline is work still due) and `Date.now`. */
const RUNTIME: DeadlineTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

/** Deadlines of one length, each started when a handler (or the read of a body) starts. */
export interface HandlerDeadlines {
  /**
   * Starts a deadline `timeoutMs` from now: `expire` is called when it falls due before
   * {@link HandlerDeadlines.meet} is called with the slot returned. No promise, no timer of its own.
   */
  start(expire: () => void): number;
  /** Meets the deadline of `slot`: `true` when it was still running (`expire` will not be called), `false` when it had fallen due. */
  meet(slot: number): boolean;
  /** Deadlines not yet met nor fallen due. */
  readonly pending: number;
}

type Expire = () => void;

/**
 * Creates the deadlines of a receiver: `timeoutMs` from each start. Work per deadline is O(1)
 * amortised: two array slots, no timer of its own.
 */
export function createHandlerDeadlines(timeoutMs: number, timers: DeadlineTimers = RUNTIME): HandlerDeadlines {
  // Slot i of the queue is `expiries[i - removed]`, for i - removed below `size` (the arrays are
  // kept from one busy spell to the next, so a deadline allocates nothing of its own); a met
  // deadline leaves `undefined` behind.
  let expiries: (Expire | undefined)[] = [];
  let dues: number[] = [];
  let size = 0;
  let head = 0;
  let removed = 0;
  let live = 0;
  let timer: unknown;
  /** Whether the armed timer was unref'd (no deadline left when it was). */
  let idle = false;

  /** No deadline left: the timer stops keeping the process alive, or goes. */
  const rest = (): void => {
    const handle = timer as { unref?: () => void; ref?: () => void } | undefined;
    if (handle !== undefined && typeof handle === 'object' && typeof handle.unref === 'function' && typeof handle.ref === 'function') {
      handle.unref();
      idle = true;
    } else {
      timers.clearTimeout(timer);
      timer = undefined;
    }
    reset();
  };

  /** Every deadline met or fallen due: the slots are free again (arrays a burst left large are let go). */
  const reset = (): void => {
    removed += size;
    size = 0;
    head = 0;
    if (expiries.length > 1024) {
      expiries = [];
      dues = [];
    }
  };

  const fire = (): void => {
    timer = undefined;
    idle = false;
    const at = timers.now();
    while (head < size) {
      const expire = expiries[head];
      if (expire !== undefined) {
        if ((dues[head] as number) > at) break;
        expiries[head] = undefined;
        live--;
        expire();
      }
      head++;
    }
    if (live === 0) reset();
    else {
      if (head > 1024 && head * 2 > size) {
        removed += head;
        expiries = expiries.slice(head, size);
        dues = dues.slice(head, size);
        size -= head;
        head = 0;
      }
      timer = timers.setTimeout(fire, Math.max(1, (dues[head] as number) - at));
    }
  };

  const start = (expire: Expire): number => {
    const slot = removed + size;
    expiries[size] = expire;
    dues[size] = timers.now() + timeoutMs;
    size++;
    live++;
    // No timer means no live deadline (the oldest is this one): one timer for the whole queue.
    // A timer left from earlier deadlines fires no later than this one's, and re-arms for it.
    if (timer === undefined) timer = timers.setTimeout(fire, timeoutMs);
    else if (idle) {
      (timer as { ref: () => void }).ref();
      idle = false;
    }
    return slot;
  };

  const meet = (slot: number): boolean => {
    const index = slot - removed;
    if (index < 0 || index >= size || expiries[index] === undefined) return false;
    expiries[index] = undefined;
    if (--live === 0) rest();
    return true;
  };

  return {
    start,
    meet,
    get pending() {
      return live;
    },
  };
}
