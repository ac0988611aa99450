/**
 * `@smsv4/testing/vitest`: add it to `setupFiles` in vitest's configuration. It extends `expect`
 * with the kit's matchers, types them, and closes what the kit starts (sandboxes, receivers,
 * servers) after the test that started it, or after the test file.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { setupFiles: ['@smsv4/testing/vitest'] } });
 */
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { smsMatchers, type SmsMatchers } from './matchers/sms-matchers.js';
import { installTeardownScope } from './sandbox/teardown.js';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends SmsMatchers<void> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends SmsMatchers<unknown> {}
}

expect.extend(smsMatchers);
installTeardownScope({ beforeEach, afterEach, afterAll });

export type { SmsMatchers };
