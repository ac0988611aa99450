/**
 * The time bound of reading a callback's body: a peer that sends its body slowly (or not at all)
 * must not hold a receiver's connection for the server's own limit (Node: 300 s). Past the bound
 * the receiver answers 408 with `Connection: close`, which frees the socket. The receiver keeps
 * the bounds of the bodies being read in one queue with one timer (see `handler-deadlines.ts`).
 */

/** Default bound of reading one body, in milliseconds: a callback's body is at most 64 KiB. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
