// Public entry point of @smsv4/transport-fetch. Every public symbol is exported here by name.

export { createClient } from './create-client.js';
export type { ClientOptions, CallOptions, ValidatedCallOptions, SmsClient, InvokeServiceAuthentication } from './create-client.js';

export { SmsApiError, SMS_API_ERROR_KINDS } from './errors.js';
export type { SmsApiErrorKind, SmsApiErrorInit, ReachedService, ErrorResponse } from './errors.js';

export type { ResponseInfo, SendResult, GetStatusResult, LookupResult, InvokeServiceResult } from './results.js';

export type { AttemptEvent, AttemptHook } from './attempt-event.js';

export { DEFAULT_RETRY_POLICIES } from './retry-policy.js';
export type { RetryPolicy, RetryOptions, ResolvedRetryPolicy } from './retry-policy.js';

export type { FetchFunction } from './exchange.js';

export { DEFAULT_TIMEOUTS } from './timeouts.js';
export type { OperationTimeouts } from './timeouts.js';
