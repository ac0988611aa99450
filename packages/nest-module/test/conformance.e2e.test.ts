/**
 * The receiver conformance suite of @smsv4/testing, against SmsModule's webhook controller: each
 * receiver is a Nest application whose decorated handlers call the suite's.
 */
import { describeReceiverConformance } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from './helpers.js';

describeReceiverConformance({
  name: 'the Nest webhook controller',
  runner: { describe, it, expect, beforeAll, afterAll },
  forwardedFor: true,
  // Nest's JSON body parser runs before the controller and answers JSON that does not parse itself.
  frameworkParsesJson: true,
  start: startReceiver,
});
