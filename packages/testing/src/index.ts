// Public entry point of @smsv4/testing. Every public symbol is exported here by name.

// --- payload builders ---
export type { Payload, PayloadResource, WireOptions, NamespaceChoice } from './builders/payload.js';
export type { TimestampForm, InstantInput } from './builders/timestamps.js';
export { formatDateTime } from './builders/timestamps.js';
export { randomTicketId } from './builders/ticket-id.js';
export type { DeliveryReceiptOptions, ReceiptPart, MultipartReceiptsOptions, MultipartReceipts } from './builders/delivery-receipt.js';
export { buildDeliveryReceipt, buildMultipartReceipts, DEFAULT_RECEIPT_DESTINATION, DEFAULT_RECEIPT_SOURCE } from './builders/delivery-receipt.js';
export type { InboundCommonOptions, InboundMessageOptions, MultipartInboundOptions, MultipartInbound } from './builders/inbound-message.js';
export { buildInboundMessage, buildMultipartInbound } from './builders/inbound-message.js';
export type { StatusPart, StatusDocumentOptions, ErrorRecordOptions, ErrorPayload, PreviewOptions } from './builders/documents.js';
export { buildStatusDocument, buildErrorRecord, buildPreview, buildMtRequest } from './builders/documents.js';

// --- posting callbacks, receiving them, serving an app ---
export type { RetrySchedule, PostCallbackOptions, CallbackAttempt, CallbackReport, CallbackBody } from './http/post-callback.js';
export { postCallback, callbackHeaders } from './http/post-callback.js';
export type { ScriptedAnswer, ReceivedCallback, CallbackReceiver, CallbackReceiverOptions } from './http/callback-receiver.js';
export { startCallbackReceiver } from './http/callback-receiver.js';
export type { ServedApp } from './http/serve.js';
export { serve } from './http/serve.js';
export { eventually } from './eventually.js';
export type { LogLine, MemoryLogger } from './logs/memory-logger.js';
export { createMemoryLogger } from './logs/memory-logger.js';

// --- matchers ---
export type { SmsMatchers } from './matchers/sms-matchers.js';
export { smsMatchers } from './matchers/sms-matchers.js';
export type { ExpectedReceipt } from './matchers/delivery-receipt-matcher.js';
export type { SmsMatcherContext, SmsMatcherResult } from './matchers/matcher-context.js';

// --- the sandbox for tests ---
export type { StartSandboxOptions, SandboxClientOptions, TestSandbox } from './sandbox/start-sandbox.js';
export { startSandbox } from './sandbox/start-sandbox.js';
export type { Teardown, Close, RunnerHooks } from './sandbox/teardown.js';
export { installTeardownScope } from './sandbox/teardown.js';

// --- load ---
export type { ReceiptLoadOptions, ReceiptLoad } from './builders/receipt-load.js';
export { createReceiptLoad } from './builders/receipt-load.js';

// --- captured callbacks and the receiver conformance suite ---
export type { CallbackFixtureName, CallbackFixture, CallbackAnswer, PostFixtureOptions } from './conformance/callback-fixtures.js';
export { CALLBACK_FIXTURES, callbackFixture, postFixture } from './conformance/callback-fixtures.js';
export type { ConformanceAssertion, ConformanceMatchers, ConformanceRunner, ReceiverUnderTest, ReceiverConformanceOptions } from './conformance/receiver-conformance.js';
export { describeReceiverConformance } from './conformance/receiver-conformance.js';
export type { PostStalledBodyOptions } from './conformance/raw-requests.js';
export { postStalledBody } from './conformance/raw-requests.js';

// --- Redis for tests ---
export type { StartRedisOptions, TestRedis } from './redis/start-redis.js';
export { startRedis } from './redis/start-redis.js';
export type { StartRedisClusterOptions, TestRedisCluster, TestRedisClusterNode } from './redis/start-redis-cluster.js';
export { startRedisCluster } from './redis/start-redis-cluster.js';
