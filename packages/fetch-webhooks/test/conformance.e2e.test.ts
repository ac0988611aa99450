/**
 * The receiver conformance suite of @smsv4/testing, with the Fetch handler served by Node's HTTP
 * server (@hono/node-server); the peer's address is read from X-Forwarded-For (`getRemoteAddress`).
 */
import { describeReceiverConformance } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from './helpers.js';

describeReceiverConformance({ name: 'the Fetch handler on Node', runner: { describe, it, expect, beforeAll, afterAll }, forwardedFor: true, start: startReceiver });
