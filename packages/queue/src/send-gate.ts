/**
 * The gate every send of an account passes, in every worker of every process: the rate limit (a
 * GCRA in Redis: each send reserves the next free slot and waits for it) and the pause a
 * `Retry-After` asks for.
 */
import type { Redis } from 'ioredis';
import { defineScripts } from './redis-scripts.js';

/** A send-rate limit shared by every worker sending for the account. */
export interface RateLimit {
  /** Sends per second, at most (e.g. `50`, or `0.5` for one every 2 s). */
  readonly perSecond: number;
  /** Sends allowed at once after an idle period (default 1: evenly spaced sends). */
  readonly burst?: number;
}

/** A reserved slot (`reserved`), or the wait until one would be free (nothing reserved). */
export interface Slot {
  readonly reserved: boolean;
  readonly waitMs: number;
}

/** The gate of one account. */
export interface SendGate {
  /** Whether sends reserve slots (a rate limit is set); without one, only the pause is checked, by `begin`. */
  readonly limited: boolean;
  /** The key of the account's pause end (for `begin`). */
  readonly pauseKey: string;
  /** Reserves the next send slot when it is at most `maxWaitMs` away. */
  reserve(maxWaitMs: number): Promise<Slot>;
  /**
   * Admits a send that reached its slot unless the account's last second already holds its limit
   * (a stalled process waking several sends at once); resolves to 0 once admitted, else the wait
   * before asking again, ms.
   */
  admit(): Promise<number>;
  /** Holds every send of the account for `ms` (`Retry-After`). */
  pause(ms: number): Promise<void>;
}

/** Checks a {@link RateLimit} (a bad one is a `TypeError`). */
export function checkRateLimit(rateLimit: RateLimit | undefined): void {
  if (rateLimit === undefined) return;
  if (rateLimit === null || typeof rateLimit !== 'object') throw new TypeError('rateLimit must be an object { perSecond, burst? }');
  const { perSecond, burst = 1 } = rateLimit;
  if (typeof perSecond !== 'number' || !(perSecond > 0) || !Number.isFinite(perSecond) || perSecond > 1_000_000) {
    throw new TypeError(`rateLimit.perSecond must be a number above 0 and at most 1000000, got ${String(perSecond)}`);
  }
  if (!Number.isSafeInteger(burst) || burst < 1) throw new TypeError(`rateLimit.burst must be a positive integer, got ${String(burst)}`);
}

/**
 * The gate of `account` (keys `<prefix>:smsv4:{account:<account>}:*`, shared by every queue of the
 * account under the same prefix).
 */
export function createSendGate(redis: Redis, prefix: string, account: string, rateLimit: RateLimit | undefined): SendGate {
  checkRateLimit(rateLimit);
  const scripts = defineScripts(redis);
  // One hash tag for both keys (the prefix's own, if it has one), so that the script runs on a cluster.
  const base = `${prefix}:smsv4:{account:${account}}`;
  const intervalUs = rateLimit === undefined ? 0 : Math.max(1, Math.round(1_000_000 / rateLimit.perSecond));
  const toleranceUs = rateLimit === undefined ? 0 : ((rateLimit.burst ?? 1) - 1) * intervalUs;
  // The most sends any one second may hold: the rate (rounded up), plus the burst beyond the first.
  const mostPerSecond = rateLimit === undefined ? 0 : Math.ceil(rateLimit.perSecond) + (rateLimit.burst ?? 1) - 1;
  let admitted = 0;
  const member = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return {
    limited: rateLimit !== undefined,
    pauseKey: `${base}:resume`,
    async reserve(maxWaitMs) {
      const [reserved, wait] = await scripts.reserveSlot(`${base}:rate`, `${base}:resume`, intervalUs, toleranceUs, Math.max(0, Math.floor(maxWaitMs * 1000)));
      return { reserved: reserved === 1, waitMs: Number(wait) };
    },
    async admit() {
      if (rateLimit === undefined) return 0;
      const [ok, wait] = await scripts.admit(`${base}:sent`, 1_000_000, mostPerSecond, `${member}-${++admitted}`);
      return ok === 1 ? 0 : Math.max(1, Number(wait));
    },
    async pause(ms) {
      if (!(ms > 0)) return;
      await scripts.pause(`${base}:resume`, Math.ceil(ms));
    },
  };
}
