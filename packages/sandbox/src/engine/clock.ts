/**
 * The sandbox's simulated clock. Every time the sandbox keeps (delivery delays, validity periods,
 * retry windows, the five days a status is kept, monthly caps, demo time limits) is simulated time,
 * read from a {@link SandboxClock}. A scaled clock runs `timeScale` simulated milliseconds per real
 * millisecond; a manual clock only moves when a test tells it to.
 */

/** An opaque timer handle returned by {@link SandboxClock.setTimeout}. */
export type TimerHandle = unknown;

/** The clock the sandbox reads and schedules on; all durations are simulated milliseconds. */
export interface SandboxClock {
  /** The simulated time, in milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once `ms` simulated milliseconds have passed. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer of {@link SandboxClock.setTimeout} (unknown or fired handles are ignored). */
  clearTimeout(handle: TimerHandle): void;
}

/** Options of {@link createScaledClock}. */
export interface ScaledClockOptions {
  /** Simulated milliseconds per real millisecond (default 1; 3600 turns an hour into a second). */
  readonly timeScale?: number;
  /** The simulated time at creation, in epoch milliseconds (default: the real time). */
  readonly start?: number;
}

/** Node's timers hold the process open; the sandbox's own timers must not. */
function unref(handle: unknown): void {
  const timer = handle as { unref?: () => void } | null;
  if (timer !== null && typeof timer === 'object' && typeof timer.unref === 'function') timer.unref();
}

/** The longest delay a platform timer takes (about 24.8 days); longer ones are chained. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * A clock that runs `timeScale` times faster than real time, on the platform's timers. Its timers
 * do not keep a Node process alive. A `timeScale` that is not a positive finite number is a
 * `TypeError`.
 */
export function createScaledClock({ timeScale = 1, start }: ScaledClockOptions = {}): SandboxClock {
  if (typeof timeScale !== 'number' || !Number.isFinite(timeScale) || timeScale <= 0) {
    throw new TypeError(`timeScale must be a positive finite number, got ${String(timeScale)}`);
  }
  // Elapsed time is read from the monotonic clock the platform's timers run on; a timer that fires
  // a little early still sees the simulated time it was due at.
  const realStart = performance.now();
  const simulatedStart = start ?? Date.now();
  let floor = simulatedStart;
  const now = (): number => {
    floor = Math.max(floor, simulatedStart + (performance.now() - realStart) * timeScale);
    return floor;
  };
  // Chained timers keep their current platform handle here, so clearTimeout reaches the live one.
  interface Chain {
    current: ReturnType<typeof setTimeout> | undefined;
  }
  const arm = (chain: Chain, fn: () => void, due: number): void => {
    const realMs = Math.max(0, (due - now()) / timeScale);
    const step = Math.min(realMs, MAX_TIMER_MS);
    chain.current = setTimeout(() => {
      if (realMs > step) arm(chain, fn, due);
      else {
        chain.current = undefined;
        floor = Math.max(floor, due);
        fn();
      }
    }, step);
    unref(chain.current);
  };
  return {
    now,
    setTimeout(fn, ms) {
      const chain: Chain = { current: undefined };
      arm(chain, fn, now() + Math.max(0, ms));
      return chain;
    },
    clearTimeout(handle) {
      const chain = handle as Chain | undefined;
      if (chain !== undefined && chain !== null && typeof chain === 'object' && 'current' in chain && chain.current !== undefined) {
        clearTimeout(chain.current);
        chain.current = undefined;
      }
    },
  };
}

/** A clock that moves only when told to: for deterministic tests. */
export interface ManualClock extends SandboxClock {
  /**
   * Moves the clock forward by `ms` simulated milliseconds, running every timer that falls due, in
   * order of due time (timers scheduled by those timers run too when they fall within the step).
   * Awaits a macrotask turn after each timer so the work it starts can proceed.
   */
  advance(ms: number): Promise<void>;
  /** Moves the clock to an absolute time (never backwards), like {@link ManualClock.advance}. */
  advanceTo(time: number): Promise<void>;
  /** Number of timers waiting. */
  pending(): number;
}

/** Options of {@link createManualClock}. */
export interface ManualClockOptions {
  /** The initial time, in epoch milliseconds (default 2025-01-01T00:00:00.000Z). */
  readonly start?: number;
}

/** A clock for tests: time stands still until {@link ManualClock.advance} moves it. */
export function createManualClock({ start = Date.UTC(2025, 0, 1) }: ManualClockOptions = {}): ManualClock {
  let now = start;
  let sequence = 0;
  const timers = new Map<number, { due: number; fn: () => void }>();
  const nextDue = (limit: number): number | undefined => {
    let best: number | undefined;
    let bestDue = Infinity;
    for (const [id, timer] of timers) {
      if (timer.due <= limit && (timer.due < bestDue || (timer.due === bestDue && id < (best ?? Infinity)))) {
        best = id;
        bestDue = timer.due;
      }
    }
    return best;
  };
  const advanceTo = async (target: number): Promise<void> => {
    for (;;) {
      const id = nextDue(target);
      if (id === undefined) break;
      const timer = timers.get(id) as { due: number; fn: () => void };
      timers.delete(id);
      now = Math.max(now, timer.due);
      timer.fn();
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
    }
    now = Math.max(now, target);
  };
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++sequence;
      timers.set(id, { due: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(handle) {
      if (typeof handle === 'number') timers.delete(handle);
    },
    advance: (ms) => advanceTo(now + Math.max(0, ms)),
    advanceTo,
    pending: () => timers.size,
  };
}

/** ISO 8601 UTC with milliseconds, as every timestamp of the API is written. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
