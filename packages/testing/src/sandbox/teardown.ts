/**
 * Closing what the kit starts (sandboxes, receivers, servers) when the test runner is done with it.
 * The runner entries (`@smsv4/testing/vitest`, `@smsv4/testing/jest`), loaded as setup files,
 * install a scope with the runner's hooks: what a test (or its `beforeEach`) starts is closed after
 * that test, anything else after the test file. The scope is found through one well-known symbol
 * on the global object, so the kit's entries find it whichever module format loaded them.
 */

/** A close function. */
export type Close = () => Promise<void>;

/**
 * How a started resource is closed: `'auto'` (default) by the scope of the runner entry in the
 * setup files; a function that takes the close function (`afterAll`, `onTestFinished`); or
 * `'manual'`: you call `close()` (or `await using`).
 */
export type Teardown = 'auto' | 'manual' | ((close: Close) => unknown);

/** Where the scope of the runner entry lives. */
const SCOPE = Symbol.for('@smsv4/testing/teardown-scope');

interface Scope {
  register(close: Close): void;
}

/** The hooks a runner entry hands to {@link installTeardownScope}. */
export interface RunnerHooks {
  beforeEach(fn: () => void): void;
  afterEach(fn: () => Promise<void>): void;
  afterAll(fn: () => Promise<void>): void;
}

/** Closes in the reverse order of starting; every close runs, the first failure is thrown after. */
async function closeAll(list: Close[]): Promise<void> {
  const errors: unknown[] = [];
  for (const close of list.splice(0).reverse()) {
    try {
      await close();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} resources failed to close`);
}

/** Installs the scope of a test file (called once by a runner entry, at the top of a setup file). */
export function installTeardownScope(hooks: RunnerHooks): void {
  const file: Close[] = [];
  let test: Close[] | undefined;
  const scope: Scope = { register: (close) => void (test ?? file).push(close) };
  (globalThis as Record<symbol, unknown>)[SCOPE] = scope;
  hooks.beforeEach(() => {
    test = [];
  });
  hooks.afterEach(async () => {
    const list = test ?? [];
    test = undefined;
    await closeAll(list);
  });
  hooks.afterAll(async () => {
    try {
      await closeAll(file);
    } finally {
      if ((globalThis as Record<symbol, unknown>)[SCOPE] === scope) delete (globalThis as Record<symbol, unknown>)[SCOPE];
    }
  });
}

/**
 * Checks a teardown option before anything starts, and returns what registers the close function
 * once it has. `TypeError` for `'auto'` without a runner entry in the setup files.
 */
export function prepareTeardown(teardown: Teardown | undefined, what: string): (close: Close) => void {
  if (teardown === 'manual') return () => undefined;
  if (typeof teardown === 'function') return (close) => void teardown(close);
  if (teardown !== undefined && teardown !== 'auto') throw new TypeError(`teardown must be 'auto', 'manual' or a function, got ${String(teardown)}`);
  const scope = (globalThis as Record<symbol, unknown>)[SCOPE] as Scope | undefined;
  if (scope === undefined) {
    throw new TypeError(
      `${what} cannot close itself: add '@smsv4/testing/vitest' (or '@smsv4/testing/jest') to the test runner's setup files, ` +
        `or pass { teardown: afterAll }, or { teardown: 'manual' } and call close()`,
    );
  }
  return (close) => scope.register(close);
}

/** A close function that runs once, however often it is called. */
export function once(close: Close): Close {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}
