/**
 * The change stream of the admin API (`GET /__sandbox/api/events`, `text/event-stream`): one
 * `event: change` with `data: {"kind": ...}` per state change, bursts coalesced to at most one
 * event per 100 ms (the latest kind; `reset` wins within a burst), and a `: ping` comment every
 * 15 seconds. Real time, not the simulated clock.
 */
import type { SandboxInternals } from '../internals.js';
import type { SandboxChange } from '../state/views.js';

/** Least time between two change events of one stream (real ms). */
export const COALESCE_MS = 100;
/** Time between two pings (real ms). */
export const PING_MS = 15_000;

/** A stream of change events that ends when `signal` aborts or the sandbox closes. */
export function createEventStream(sandbox: Pick<SandboxInternals, 'feed' | 'streams'>, signal: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cleanup = (): void => undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let lastSent = 0;
      let pendingKind: SandboxChange['kind'] | undefined;
      let flushTimer: ReturnType<typeof setTimeout> | undefined;
      let closed = false;
      const write = (text: string): void => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const flush = (): void => {
        flushTimer = undefined;
        if (pendingKind === undefined) return;
        write(`event: change\ndata: ${JSON.stringify({ kind: pendingKind })}\n\n`);
        pendingKind = undefined;
        lastSent = Date.now();
      };
      const unsubscribe = sandbox.feed.subscribe((change) => {
        pendingKind = pendingKind === 'reset' ? 'reset' : change.kind;
        if (flushTimer !== undefined) return;
        const wait = Math.max(0, lastSent + COALESCE_MS - Date.now());
        if (wait === 0) flush();
        else flushTimer = setTimeout(flush, wait);
      });
      const ping = setInterval(() => write(': ping\n\n'), PING_MS);
      (ping as { unref?: () => void }).unref?.();
      cleanup = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(ping);
        if (flushTimer !== undefined) clearTimeout(flushTimer);
        sandbox.streams.delete(cleanup);
        signal.removeEventListener('abort', cleanup);
        try {
          controller.close();
        } catch {
          // Already closed or errored by the consumer.
        }
      };
      sandbox.streams.add(cleanup);
      signal.addEventListener('abort', cleanup);
      if (signal.aborted) return cleanup();
      // A comment first, so clients and proxies see the stream open at once.
      write(': connected\n\n');
    },
    cancel() {
      cleanup();
    },
  });
}
