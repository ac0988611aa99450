/**
 * The raw body of a callback for the webhook controller: core's Node request reader (what Nest's
 * body parsers left on the request: `req.rawBody` with `{ rawBody: true }`, a string or bytes from
 * `useBodyParser('text' | 'raw')`, or parsed JSON written back; else the stream read with the
 * limit), with Nest's own advice for a body a parser consumed.
 */
import type { IncomingMessage } from 'node:http';
import { createNodeRequestBodyReader, type BodyReader } from '@smsv4/core';

/** What to do when Nest's JSON parser consumed a webhook body without keeping the raw text. */
const NEST_CONSUMED_ADVICE = 'create the application with { rawBody: true }, or do not parse this route';

/** A core `BodyReader` for a request that reached the webhook controller. */
export function createNestBodyReader(req: IncomingMessage): BodyReader {
  return createNodeRequestBodyReader(req, { consumedAdvice: NEST_CONSUMED_ADVICE });
}
