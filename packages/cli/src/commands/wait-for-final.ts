import { deliveryState } from '@smsv4/core';
import type { GetStatusResult, SmsClient } from '@smsv4/transport-fetch';
import type { Progress } from '../terminal/progress.js';

/** Options of {@link waitForFinal}. */
export interface WaitOptions {
  /** Time between two status requests, ms. */
  readonly intervalMs: number;
  /** Longest wait, ms. */
  readonly timeoutMs: number;
  readonly progress: Progress;
}

/** `true` when a status can no longer change (an unknown code is taken as final). */
export const isFinal = (code: number): boolean => deliveryState(code)?.final !== false;

/**
 * Asks for the status until it is final or the time is up (a bounded loop); returns the last
 * answer and whether it is final. Failures of a status request reject as the client's.
 */
export async function waitForFinal(client: SmsClient, ticketId: string, { intervalMs, timeoutMs, progress }: WaitOptions): Promise<{ result: GetStatusResult; final: boolean }> {
  const started = performance.now();
  for (;;) {
    const result = await client.getStatus(ticketId);
    const elapsed = performance.now() - started;
    if (isFinal(result.status.code)) return { result, final: true };
    if (elapsed + intervalMs > timeoutMs) return { result, final: false };
    progress.note(`waiting for a final status: ${result.status.code} ${result.status.description ?? ''} (${Math.round(elapsed / 1000)} s)`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
