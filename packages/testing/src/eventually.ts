/** Polling until a condition holds, in any runner. */

/**
 * Calls `check` until it returns something other than `undefined` (awaiting it when it is a
 * promise) and resolves with that; rejects after `timeoutMs` (default 5000) with the last error
 * `check` threw, if any. Polls every `intervalMs` (default 10).
 *
 * @example
 * const receipt = await eventually(() => handled.find((r) => r.mtStatus.ticketId === ticketId));
 */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 5000, intervalMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`, lastError === undefined ? undefined : { cause: lastError });
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
