/**
 * Reads a request body with a size bound, before any parsing: at most `maxBytes + 1` octets are
 * ever buffered, so a decoder handed the result sees that the body is too large without the
 * sandbox holding all of it.
 */

/** A body read up to its bound. */
export interface BoundedBody {
  /** The octets read: the whole body, or its first `maxBytes + 1` octets when it is larger. */
  readonly bytes: Uint8Array;
  /** Whether the body is larger than `maxBytes`. */
  readonly tooLarge: boolean;
}

/**
 * Reads at most `maxBytes + 1` octets of a request's body. A `Content-Length` above the bound
 * answers at once without reading. A body stream that fails (client gone) reads as what arrived.
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<BoundedBody> {
  const declared = request.headers.get('content-length');
  const declaredLength = declared !== null && /^[0-9]+$/.test(declared.trim()) ? Number(declared) : undefined;
  if (declaredLength !== undefined && declaredLength > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { bytes: new Uint8Array(maxBytes + 1), tooLarge: true };
  }
  if (declaredLength !== undefined) {
    // A declared length within the bound: HTTP framing holds the body to it, read it in one go
    // (the Node adapter then reads the socket directly, without a Web stream).
    try {
      const bytes = new Uint8Array(await request.arrayBuffer());
      return bytes.byteLength > maxBytes ? { bytes: bytes.subarray(0, maxBytes + 1), tooLarge: true } : { bytes, tooLarge: false };
    } catch {
      return { bytes: new Uint8Array(0), tooLarge: false };
    }
  }
  if (request.body === null) return { bytes: new Uint8Array(0), tooLarge: false };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  } catch {
    // A body that breaks off is judged on what arrived.
  } finally {
    reader.releaseLock();
  }
  const length = Math.min(total, maxBytes + 1);
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= length) break;
    const part = chunk.subarray(0, length - offset);
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return { bytes, tooLarge: total > maxBytes };
}
