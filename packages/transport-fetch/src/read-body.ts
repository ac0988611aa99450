const EMPTY = new Uint8Array(0);

/**
 * Reads a response body up to `maxBytes` octets; `undefined` when it is larger. A declared
 * `Content-Length` above the limit is refused before reading; a body without one is read as a stream
 * and cancelled as soon as it passes the limit.
 */
export function readBody(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = response.headers.get('content-length');
  if (declared !== null && /^[0-9]+$/.test(declared)) {
    if (Number(declared) > maxBytes) return (response.body?.cancel() ?? Promise.resolve()).then(none, none);
    // The length is known and within the limit: the fetch implementation enforces it.
    return response.arrayBuffer().then((buffer) => (buffer.byteLength > maxBytes ? undefined : new Uint8Array(buffer)));
  }
  return readStream(response, maxBytes);
}

const none = (): undefined => undefined;

async function readStream(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  const stream = response.body;
  if (stream === null) return EMPTY;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
