import { describe, expect, it } from 'vitest';
import { installTeardownScope, once, prepareTeardown, type Close } from './teardown.js';

/** A scope on hooks the test drives by hand (the real ones belong to the runner entry of this run). */
function fakeRunner() {
  const hooks: { beforeEach: Array<() => void>; afterEach: Array<() => Promise<void>>; afterAll: Array<() => Promise<void>> } = { beforeEach: [], afterEach: [], afterAll: [] };
  const key = Symbol.for('@smsv4/testing/teardown-scope');
  const outer = (globalThis as Record<symbol, unknown>)[key];
  installTeardownScope({ beforeEach: (fn) => void hooks.beforeEach.push(fn), afterEach: (fn) => void hooks.afterEach.push(fn), afterAll: (fn) => void hooks.afterAll.push(fn) });
  return {
    hooks,
    restore: () => void ((globalThis as Record<symbol, unknown>)[key] = outer),
  };
}

describe('the teardown scope', () => {
  it('closes what a test starts after it, the rest after the file, newest first', async () => {
    const runner = fakeRunner();
    const closed: string[] = [];
    const start = (name: string): void => prepareTeardown('auto', name)(async () => void closed.push(name));
    try {
      start('file-1');
      runner.hooks.beforeEach[0]?.();
      start('test-1');
      start('test-2');
      await runner.hooks.afterEach[0]?.();
      expect(closed).toEqual(['test-2', 'test-1']);
      start('file-2');
      await runner.hooks.afterAll[0]?.();
      expect(closed).toEqual(['test-2', 'test-1', 'file-2', 'file-1']);
      expect(() => prepareTeardown('auto', 'late')).toThrow('late cannot close itself');
    } finally {
      runner.restore();
    }
  });

  it('runs every close and reports the failures', async () => {
    const runner = fakeRunner();
    try {
      const closed: number[] = [];
      const register = (close: Close): void => prepareTeardown('auto', 'x')(close);
      register(async () => void closed.push(1));
      register(async () => {
        throw new Error('first');
      });
      register(async () => {
        throw new Error('second');
      });
      await expect(runner.hooks.afterAll[0]?.()).rejects.toThrow('2 resources failed to close');
      expect(closed).toEqual([1]);
    } finally {
      runner.restore();
    }
  });

  it('closes once however often it is called', async () => {
    let count = 0;
    const close = once(async () => void count++);
    await Promise.all([close(), close()]);
    await close();
    expect(count).toBe(1);
  });

  it('refuses an unknown teardown', () => {
    expect(() => prepareTeardown('later' as 'auto', 'x')).toThrow("teardown must be 'auto', 'manual' or a function, got later");
  });
});
