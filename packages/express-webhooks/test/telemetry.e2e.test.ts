/**
 * The receiver telemetry suite of @smsv4/testing on Express 4 and 5: the `telemetry` and `logger`
 * options reach core's receiver, so a handled callback, a duplicate and a refused one (401) each give
 * exactly one span, one counter point and one log line, with no credentials, content or numbers.
 */
import { describeReceiverTelemetry } from '@smsv4/testing/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, receiverStarter } from './helpers.js';

for (const [name, createApp] of EXPRESS_VERSIONS) {
  describeReceiverTelemetry({ name, runner: { describe, it, expect, beforeAll, afterAll }, start: receiverStarter(createApp) });
}
