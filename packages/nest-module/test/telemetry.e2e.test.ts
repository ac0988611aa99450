/**
 * The receiver telemetry suite of @smsv4/testing against SmsModule's webhook controller:
 * `webhooks.telemetry` and `webhooks.logger` reach core's receiver, and the Basic auth guard, which
 * answers 401 before that receiver runs, reports to the same telemetry as the receiver reports its
 * own 401 (one span, one counter point and one log line per callback, with no credentials, content
 * or numbers).
 */
import { describeReceiverTelemetry } from '@smsv4/testing/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from './helpers.js';

describeReceiverTelemetry({ name: 'the Nest webhook controller', runner: { describe, it, expect, beforeAll, afterAll }, start: startReceiver });
