/**
 * The receiver conformance suite of @smsv4/testing, against SmsModule's webhook route on Nest's
 * Fastify platform: the body reaches the receiver unparsed, whatever its content type.
 */
import { describeReceiverConformance } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiverOn } from './helpers.js';

describeReceiverConformance({
  name: 'the Nest webhook controller on Fastify',
  runner: { describe, it, expect, beforeAll, afterAll },
  forwardedFor: true,
  start: (options) => startReceiverOn('fastify', options),
});
