// Public entry point of @smsv4/fastify-webhooks. Every public symbol is exported here by name.

export type { FastifyPlatform, FastifyWebhooksOptions } from './fastify-webhooks.js';
export { fastifyWebhooks } from './fastify-webhooks.js';

// The receiving building blocks of @smsv4/core, so that one import is enough.
export type {
  BasicAuthCredentials,
  DuplicateEvent,
  DuplicateStore,
  InboundCharset,
  InboundConcatenation,
  InboundMessage,
  MemoryDuplicateStore,
  MemoryDuplicateStoreOptions,
  MemoryReassemblyStore,
  MemoryReassemblyStoreOptions,
  MessageDeliveryStatus,
  MessagePartStatus,
  ReceiptAggregator,
  ReceiptAggregatorOptions,
  PartAddOutcome,
  ReassemblyGroup,
  ReassemblyStore,
  RedisCommand,
  RedisDuplicateStoreOptions,
  RedisReassemblyStore,
  RedisReassemblyStoreOptions,
  ReserveOutcome,
  WebhookContext,
  WebhookErrorCode,
  WebhookHandler,
  WebhookOutcome,
  WebhookRejectionCode,
  WebhookResponse,
  DeliveryReceipt,
  MobileOriginate,
} from '@smsv4/core';
export {
  createAddressAllowList,
  normalizeIpAddress,
  WebhookError,
  WEBHOOK_REJECTIONS,
  createMemoryDuplicateStore,
  createRedisDuplicateStore,
  createMemoryReassemblyStore,
  createRedisReassemblyStore,
  groupMessage,
  createReceiptAggregator,
  foldReceipts,
} from '@smsv4/core';
