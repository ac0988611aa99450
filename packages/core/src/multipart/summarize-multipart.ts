import { deliveryState } from '../errors/catalogue.js';

/** The state of one part of a multipart message; no `code` while no receipt has come for it. */
export interface MultipartPart {
  readonly code?: number;
  readonly description?: string;
}

/** The top-level code and description of a multipart message. */
export interface MultipartSummary {
  readonly code: number;
  readonly description: string;
}

const DELIVERED = 4;
const PARTIAL_FAILURE = 830;
const AWAITING = 831;

/** The catalogue's description of a code, else the first description the parts give it, else `''`. */
function describe(code: number, parts: ReadonlyArray<MultipartPart>): string {
  const known = deliveryState(code);
  if (known !== undefined) return known.description;
  for (const part of parts) if (part.code === code && typeof part.description === 'string') return part.description;
  return '';
}

/**
 * The summary of a multipart message from the states of its parts, by the spec's rules:
 *
 * 1. every part has the same final code → that code (a message of one part: its own code, whatever it is);
 * 2. otherwise 830 (partial message delivery failure) if any part failed: a final code whose outcome
 *    in `DELIVERY_STATES` is not delivered, or a code the catalogue does not know;
 * 3. otherwise 831 (awaiting complete message delivery status) if any part has no code yet or a
 *    pending one (2, 3);
 * 4. otherwise every part was delivered with codes 0 and 4 mixed → 4 (message delivered): the spec
 *    counts both as delivered, and 4 is the confirmed one.
 *
 * Parts with no code at all give 831, and so do parts that all share a pending code (2 or 3): "the
 * same result" of rule 1 is a final result, and 831 is the spec's state for "the operator has not
 * returned a receipt for one or more parts and no part has failed". Descriptions come from `DELIVERY_STATES`; a code unknown to
 * the catalogue keeps the part's own description. Throws `TypeError` for an empty list or a part
 * whose code is not a non-negative integer.
 *
 * @example
 * summarizeMultipart([{ code: 4 }, { code: 811 }]); // { code: 830, description: 'Partial message delivery failure' }
 */
export function summarizeMultipart(parts: ReadonlyArray<MultipartPart>): MultipartSummary {
  if (!Array.isArray(parts) || parts.length === 0) throw new TypeError('summarizeMultipart needs at least one part');
  let first: number | undefined;
  let same = true;
  let failed = false;
  let waiting = false;
  for (const part of parts as ReadonlyArray<MultipartPart>) {
    if (typeof part !== 'object' || part === null) throw new TypeError('each part must be an object');
    const code = part.code;
    if (code === undefined) {
      waiting = true;
      same = false;
      continue;
    }
    if (!Number.isSafeInteger(code) || code < 0) throw new TypeError(`a part code must be a non-negative integer, got ${String(code)}`);
    if (first === undefined) first = code;
    else if (code !== first) same = false;
    const state = deliveryState(code);
    if (state === undefined || (state.final && state.outcome !== 'delivered')) failed = true;
    else if (state.outcome !== 'delivered') waiting = true;
  }
  let code: number;
  if (same && first !== undefined && (parts.length === 1 || deliveryState(first)?.final !== false)) code = first;
  else if (failed) code = PARTIAL_FAILURE;
  else if (waiting) code = AWAITING;
  else code = DELIVERED;
  return { code, description: describe(code, parts) };
}
