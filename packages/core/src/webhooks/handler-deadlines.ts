/**
 * The handlers' deadlines, kept by one timer for all of them. Every deadline of a receiver is the
 * same length from its start, so they fall due in the order they were set: a queue, with one timer
 * armed for its oldest live entry. A handler that settles in time only clears its slot. When no
 * deadline is left, the timer is unref'd where the runtime allows it (Node, Bun, Deno: it no longer
 * keeps the process alive, and the next request reuses it instead of arming another), and cleared
 * elsewhere: an idle receiver holds no timer that keeps its process alive.
 */

/** What a deadline resolves with when it falls due before the promise it raced. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

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

/** Deadlines of one length, raced by the promises of handlers. */
export interface HandlerDeadlines {
  /** Resolves like `settled`, or with {@link TIMED_OUT} when `timeoutMs` passes first. */
  race<T>(settled: Promise<T>): Promise<T | typeof TIMED_OUT>;
  /** Deadlines not yet met nor fallen due. */
  readonly pending: number;
}

type Resolve = (value: typeof TIMED_OUT) => void;

/**
 * Creates the deadlines of a receiver: `timeoutMs` from each race's start. Work per race is O(1)
 * amortised: two array slots, no timer of its own.
 */
export function createHandlerDeadlines(timeoutMs: number, timers: DeadlineTimers = RUNTIME): HandlerDeadlines {
  // Slot i of the queue is `resolvers[i - removed]`; a met deadline leaves `undefined` behind.
  let resolvers: (Resolve | undefined)[] = [];
  let dues: number[] = [];
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

  const reset = (): void => {
    removed += resolvers.length;
    resolvers = [];
    dues = [];
    head = 0;
  };

  const fire = (): void => {
    timer = undefined;
    idle = false;
    const at = timers.now();
    while (head < resolvers.length) {
      const resolve = resolvers[head];
      if (resolve !== undefined) {
        if ((dues[head] as number) > at) break;
        resolvers[head] = undefined;
        live--;
        resolve(TIMED_OUT);
      }
      head++;
    }
    if (live === 0) reset();
    else {
      if (head > 1024 && head * 2 > resolvers.length) {
        removed += head;
        resolvers = resolvers.slice(head);
        dues = dues.slice(head);
        head = 0;
      }
      timer = timers.setTimeout(fire, Math.max(1, (dues[head] as number) - at));
    }
  };

  return {
    race<T>(settled: Promise<T>): Promise<T | typeof TIMED_OUT> {
      return new Promise<T | typeof TIMED_OUT>((resolve) => {
        const slot = removed + resolvers.length;
        resolvers.push(resolve);
        dues.push(timers.now() + timeoutMs);
        live++;
        // No timer means no live deadline (the oldest is this one): one timer for the whole queue.
        // A timer left from earlier deadlines fires no later than this one's, and re-arms for it.
        if (timer === undefined) timer = timers.setTimeout(fire, timeoutMs);
        else if (idle) {
          (timer as { ref: () => void }).ref();
          idle = false;
        }
        void settled.then((value) => {
          const index = slot - removed;
          if (index >= 0 && resolvers[index] === resolve) {
            resolvers[index] = undefined;
            if (--live === 0) rest();
          }
          // Resolving a promise that timed out already does nothing.
          resolve(value);
        });
      });
    },
    get pending() {
      return live;
    },
  };
}
