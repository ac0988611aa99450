/** The receiver conformance suite of @smsv4/testing, on Express 4 and 5. */
import { describeReceiverConformance } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, receiverStarter } from './helpers.js';

for (const [name, createApp] of EXPRESS_VERSIONS) {
  describeReceiverConformance({ name, runner: { describe, it, expect, beforeAll, afterAll }, forwardedFor: true, start: receiverStarter(createApp) });
}
