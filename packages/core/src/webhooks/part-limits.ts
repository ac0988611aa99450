/**
 * The size of one part of a multipart inbound message, checked before the part is held: one SMS
 * carries at most 140 octets of user data (header included), so the service never posts a part
 * larger than that. A part well past it (twice as large) is no callback of the service and is
 * refused, so that a stranger cannot fill the reassembly store with large parts.
 */
import { USER_DATA_OCTETS } from '../text/capacity.js';
import type { InboundCallback } from './decode-callback.js';
import { webhookRejection, type WebhookResponse } from './webhook-response.js';

/** Most octets of content a part of a multipart inbound message may hold: twice what one SMS carries (280). */
export const MAX_INBOUND_PART_OCTETS = 2 * USER_DATA_OCTETS;

/** The 413 answer for a part larger than {@link MAX_INBOUND_PART_OCTETS}, or `undefined` when it fits. */
export function partTooLarge(callback: InboundCallback): WebhookResponse | undefined {
  // Hex content: two characters an octet.
  const octets = Math.ceil(callback.message.message.content.length / 2);
  if (octets <= MAX_INBOUND_PART_OCTETS) return undefined;
  return webhookRejection('part-too-large', { values: { maxOctets: String(MAX_INBOUND_PART_OCTETS) } });
}
