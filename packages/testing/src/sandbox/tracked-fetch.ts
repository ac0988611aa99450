/**
 * A `fetch` that knows which requests are still going: from the call until the answer's body has
 * been read to its end or cancelled. The sandbox posts callbacks through it, so a test can wait for
 * every callback in flight to be answered and recorded.
 */

const NULL_BODY = new Set([101, 204, 205, 304]);

/** A `fetch` wrapper and the requests it has in flight. */
export interface TrackedFetch {
  readonly fetch: typeof fetch;
  /** How many requests are in flight. */
  inFlight(): number;
  /** Resolves once every request now in flight has finished (answered and read, or failed). */
  drain(): Promise<void>;
}

/** Wraps a `fetch`. */
export function createTrackedFetch(base: typeof fetch): TrackedFetch {
  const going = new Set<Promise<void>>();
  const track = (): (() => void) => {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    going.add(done);
    void done.then(() => going.delete(done));
    return finish;
  };
  const tracked: typeof fetch = async (input, init) => {
    const finish = track();
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      finish();
      throw error;
    }
    const source = response.body;
    if (source === null || NULL_BODY.has(response.status)) {
      await source?.cancel().catch(() => undefined);
      finish();
      return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    const reader = source.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            finish();
          } else controller.enqueue(value);
        } catch (error) {
          controller.error(error);
          finish();
        }
      },
      async cancel(reason) {
        try {
          await reader.cancel(reason);
        } finally {
          finish();
        }
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetch: tracked,
    inFlight: () => going.size,
    drain: async () => {
      await Promise.all([...going]);
    },
  };
}
