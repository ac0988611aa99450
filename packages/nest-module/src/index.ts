// Public entry point of @smsv4/nest-module. Every public symbol is exported here by name.

export { SmsModule } from './sms-module.js';
export type {
  NestPlatform,
  SmsModuleAsyncOptions,
  SmsModuleDeclaration,
  SmsModuleOptions,
  SmsModuleSyncOptions,
  SmsOptionsFactory,
  SmsWebhookOptions,
} from './sms-module-options.js';
export type { SmsModuleErrorCode, SmsModuleErrorOptions } from './sms-module-error.js';
export { SmsModuleError } from './sms-module-error.js';
export { SMS_CLIENT, SMS_MODULE_OPTIONS, InjectSmsClient, InjectSmsOptions } from './tokens.js';
export { OnDeliveryReceipt, OnInboundMessage, ON_DELIVERY_RECEIPT, ON_INBOUND_MESSAGE } from './webhook-decorators.js';
export type { DiscoveredHandler } from './webhook-receiver.js';
export { SmsWebhookReceiver } from './webhook-receiver.js';
export { SmsBasicAuthGuard } from './basic-auth-guard.js';
export { SmsCodec } from './sms-codec.js';

// The client and the receiving building blocks, so that one import is enough.
export type { SmsClient, ClientOptions, SendResult, GetStatusResult, LookupResult, InvokeServiceResult, SmsApiErrorKind } from '@smsv4/transport-fetch';
export { SmsApiError } from '@smsv4/transport-fetch';
export type {
  BasicAuthCredentials,
  DeliveryReceipt,
  DuplicateEvent,
  DuplicateStore,
  ReassemblyStore,
  RedisCommand,
  InboundCharset,
  InboundMessage,
  MessageDeliveryStatus,
  MobileOriginate,
  MtRequest,
  ReceiptAggregator,
  WebhookContext,
  WebhookErrorCode,
  WebhookHandler,
  WebhookOutcome,
  WebhookRejectionCode,
  WebhookResponse,
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
  createReceiptAggregator,
  foldReceipts,
  timestampInstant,
  compareTimestamps,
} from '@smsv4/core';
