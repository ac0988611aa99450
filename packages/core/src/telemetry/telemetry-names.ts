/**
 * Every span, metric and attribute name the toolkit emits, written once: the packages, their
 * READMEs and the tests read them from here.
 */

/** Span names. `{operation}` is `send`, `status`, `lookup` or `invokeService`; `{kind}` the callback kind. */
export const TELEMETRY_SPANS = Object.freeze({
  /** One call of the client (all its attempts), internal span. */
  operation: 'smsv4 {operation}',
  /** One HTTP attempt, client span named by the HTTP method as the HTTP semantic conventions say. */
  attempt: '{method}',
  /** One callback taken (or refused) by a receiver, internal span. */
  callback: 'smsv4 receive {kind}',
  /** One job of the send queue, internal span. */
  queueJob: 'smsv4 queue send',
});

/** Attribute keys beyond the OpenTelemetry semantic conventions. */
export const TELEMETRY_ATTRIBUTES = Object.freeze({
  operation: 'smsv4.operation',
  ticketId: 'smsv4.ticket_id',
  code: 'smsv4.code',
  requestId: 'smsv4.request_id',
  outcome: 'smsv4.outcome',
  reachedService: 'smsv4.reached_service',
  attempts: 'smsv4.attempts',
  callbackKind: 'smsv4.callback.kind',
  segmentNumber: 'smsv4.segment_number',
  totalSegments: 'smsv4.total_segments',
  duplicate: 'smsv4.duplicate',
  rejection: 'smsv4.rejection',
  deliveryOutcome: 'smsv4.delivery.outcome',
  queueKey: 'smsv4.queue.key',
  queueState: 'smsv4.queue.state',
  /** The message content (only with `logContent: true`). */
  messageContent: 'smsv4.message.content',
  /** The destination address of a send or a callback (only with `logContent: true`). */
  destination: 'smsv4.destination',
  /** The source address of an inbound message (only with `logContent: true`). */
  source: 'smsv4.source',
});

/** One metric instrument. */
export interface TelemetryMetric {
  readonly name: string;
  readonly instrument: 'counter' | 'histogram' | 'gauge';
  readonly unit: string;
  readonly description: string;
  /** The attributes each measurement carries. */
  readonly attributes: readonly string[];
}

const metric = (name: string, instrument: TelemetryMetric['instrument'], unit: string, description: string, attributes: readonly string[]): TelemetryMetric =>
  Object.freeze({ name, instrument, unit, description, attributes: Object.freeze([...attributes]) });

/** Every metric, keyed by what it counts. */
export const TELEMETRY_METRICS = Object.freeze({
  sends: metric('smsv4.client.sends', 'counter', '{message}', 'Sends by outcome (accepted, rejected, unknown, failed) and the service code', [
    TELEMETRY_ATTRIBUTES.outcome,
    TELEMETRY_ATTRIBUTES.code,
  ]),
  operations: metric('smsv4.client.operations', 'counter', '{call}', 'Client calls by operation and outcome', [TELEMETRY_ATTRIBUTES.operation, TELEMETRY_ATTRIBUTES.outcome, TELEMETRY_ATTRIBUTES.code]),
  attempts: metric('smsv4.client.attempts', 'counter', '{attempt}', 'HTTP attempts by operation and HTTP status', [TELEMETRY_ATTRIBUTES.operation, 'http.response.status_code', 'error.type']),
  retries: metric('smsv4.client.retries', 'counter', '{retry}', 'Attempts followed by a retry, by operation and why', [TELEMETRY_ATTRIBUTES.operation, 'error.type']),
  attemptDuration: metric('http.client.request.duration', 'histogram', 's', 'Duration of HTTP attempts (HTTP semantic conventions)', [
    'http.request.method',
    'server.address',
    'server.port',
    'http.response.status_code',
    'error.type',
  ]),
  callbacks: metric('smsv4.receiver.callbacks', 'counter', '{callback}', 'Callbacks by kind and outcome (handled, duplicate, part-stored, rejected) and rejection', [
    TELEMETRY_ATTRIBUTES.callbackKind,
    TELEMETRY_ATTRIBUTES.outcome,
    TELEMETRY_ATTRIBUTES.rejection,
  ]),
  duplicates: metric('smsv4.receiver.duplicates', 'counter', '{callback}', 'Callbacks answered as duplicates, by kind', [TELEMETRY_ATTRIBUTES.callbackKind]),
  orphans: metric('smsv4.receiver.reassembly.orphans', 'counter', '{message}', 'Multipart inbound messages handed over incomplete', []),
  deliveryLatency: metric('smsv4.message.delivery.duration', 'histogram', 's', "From the send to the receipt's deliveryDate, per final receipt", [TELEMETRY_ATTRIBUTES.deliveryOutcome]),
  queueJobs: metric('smsv4.queue.jobs', 'counter', '{job}', 'Send-queue state changes, by state', [TELEMETRY_ATTRIBUTES.queueState]),
  queueDepth: metric('smsv4.queue.depth', 'gauge', '{job}', 'Jobs waiting or delayed in the send queue', []),
  unknownFates: metric('smsv4.queue.unknown_fates', 'counter', '{message}', 'Sends parked as unknown fate (worker died, timeout or 1000)', []),
});

/** Buckets of the delivery latency histogram, seconds: a second to three days. */
export const DELIVERY_LATENCY_BUCKETS_S: readonly number[] = Object.freeze([1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400, 259200]);
