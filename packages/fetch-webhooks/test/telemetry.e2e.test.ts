/**
 * The receiver telemetry suite of @smsv4/testing on the Fetch handler served by Node's HTTP server:
 * the `telemetry` and `logger` options reach core's receiver (one span, one counter point and one log
 * line per callback, with no credentials, content or numbers).
 */
import { describeReceiverTelemetry } from '@smsv4/testing/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from './helpers.js';

describeReceiverTelemetry({ name: 'the Fetch handler on Node', runner: { describe, it, expect, beforeAll, afterAll }, start: startReceiver });
