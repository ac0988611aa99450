/**
 * `@smsv4/testing/jest`: add it to `setupFilesAfterEnv` in jest's configuration. It extends jest's `expect`
 * with the kit's matchers, types them (for `@types/jest` globals and for `@jest/globals`), and
 * closes what the kit starts (sandboxes, receivers, servers) after the test that started it, or
 * after the test file.
 *
 * @example
 * // jest.config.js
 * module.exports = { setupFilesAfterEnv: ['@smsv4/testing/jest'] };
 */
import type {} from 'expect';
import { smsMatchers, type SmsMatchers } from './matchers/sms-matchers.js';
import { installTeardownScope, type RunnerHooks } from './sandbox/teardown.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
    interface Matchers<R, T = {}> extends SmsMatchers<R> {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Expect extends SmsMatchers<unknown> {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface InverseAsymmetricMatchers extends SmsMatchers<unknown> {}
  }
}

declare module 'expect' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
  interface Matchers<R extends void | Promise<void>, T = unknown> extends SmsMatchers<R> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchers extends SmsMatchers<unknown> {}
}

/** Jest's globals in a setup file (`setupFilesAfterEnv`), where they are injected. */
interface JestGlobals extends RunnerHooks {
  expect: { extend(matchers: object): void };
}

const globals = globalThis as unknown as Partial<JestGlobals>;
if (typeof globals.expect?.extend !== 'function' || typeof globals.afterAll !== 'function' || typeof globals.beforeEach !== 'function' || typeof globals.afterEach !== 'function') {
  throw new TypeError("@smsv4/testing/jest runs as a jest setup file: add it to setupFilesAfterEnv (jest's globals must be injected)");
}
globals.expect.extend(smsMatchers);
installTeardownScope({ beforeEach: globals.beforeEach, afterEach: globals.afterEach, afterAll: globals.afterAll });

export type { SmsMatchers };
