/**
 * The peer's address behind one proxy: the last entry of `X-Forwarded-For`. A proxy appends the
 * address it saw to whatever the client sent, so only the last entry is the proxy's own; the ones
 * before it are whatever the client wrote (`X-Forwarded-For: <an allowed address>` is a forgery
 * anyone can send).
 */

/**
 * The last entry of `X-Forwarded-For`: the address the one proxy in front of the application (the
 * platform's: Vercel, a load balancer) saw. Use it only behind exactly one proxy that appends to the
 * header; behind none, the header is the client's own and must not be read.
 *
 * @example
 * const receive = createFetchWebhookHandler({
 *   allowRemoteAddress: createAddressAllowList(['203.0.113.0/24']),
 *   getRemoteAddress: lastForwardedFor,
 *   onDeliveryReceipt: saveReceipt,
 * });
 */
export function lastForwardedFor(request: Request): string | undefined {
  const header = request.headers.get('x-forwarded-for');
  if (header === null) return undefined;
  const last = header.slice(header.lastIndexOf(',') + 1).trim();
  return last === '' ? undefined : last;
}
