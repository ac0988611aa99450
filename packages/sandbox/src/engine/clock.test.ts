import { describe, expect, it } from 'vitest';
import { createManualClock, createScaledClock } from './clock.js';

describe('createManualClock', () => {
  it('runs timers in due order as time advances, including timers they schedule', async () => {
    const clock = createManualClock({ start: 1000 });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => {
      fired.push(`a@${clock.now()}`);
      clock.setTimeout(() => fired.push(`c@${clock.now()}`), 50);
    }, 100);
    const cancelled = clock.setTimeout(() => fired.push('never'), 150);
    clock.clearTimeout(cancelled);
    await clock.advance(160);
    expect(fired).toEqual(['a@1100', 'c@1150']);
    expect(clock.now()).toBe(1160);
    await clock.advance(1000);
    expect(fired).toEqual(['a@1100', 'c@1150', 'b@1200']);
    expect(clock.pending()).toBe(0);
  });
});

describe('createScaledClock', () => {
  it('runs simulated time faster than real time', async () => {
    const clock = createScaledClock({ timeScale: 1000, start: 0 });
    const fired = await new Promise<number>((resolve) => clock.setTimeout(() => resolve(clock.now()), 20_000));
    expect(fired).toBeGreaterThanOrEqual(20_000);
    expect(fired).toBeLessThan(2_000_000);
  });

  it('refuses a time scale that is not a positive number', () => {
    for (const timeScale of [0, -1, Number.NaN, Infinity]) expect(() => createScaledClock({ timeScale })).toThrow(TypeError);
  });

  it('cancels a timer', async () => {
    const clock = createScaledClock({ timeScale: 1000 });
    let fired = false;
    const handle = clock.setTimeout(() => (fired = true), 1000);
    clock.clearTimeout(handle);
    await new Promise((r) => setTimeout(r, 20));
    expect(fired).toBe(false);
  });
});
