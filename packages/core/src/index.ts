// Public entry point of @smsv4/core. Every public symbol is exported here by name.

// --- foundation ---
export type { Result } from './result.js';
export { ok, err } from './result.js';
export type { BodyInput, BodyTextError } from './body/body-text.js';
export { bodyToText, utf8ByteLength, utf8Encode } from './body/body-text.js';
export type { BodyReadErrorCode, BodyReadErrorOptions } from './body/body-read-error.js';
export { BodyReadError } from './body/body-read-error.js';
export type { ContentLength } from './body/declared-length.js';
export type { ReadBodyStreamOptions } from './body/read-body-stream.js';
export { readBodyStream } from './body/read-body-stream.js';
export type { FetchBody, ReadRequestBodyOptions } from './body/read-request-body.js';
export { readRequestBody } from './body/read-request-body.js';
export type { StrictJsonError, StrictJsonOptions } from './json/strict-json.js';
export { parseStrictJson } from './json/strict-json.js';
export type { XmlDocument, XmlElement, XmlValue, XmlProblem, ParseXmlOptions } from './xml/xml-document.js';
export { parseXmlDocument, XML_NAMESPACES } from './xml/xml-document.js';
export type { WellFormedProblem } from './xml/well-formed.js';
export { checkWellFormed, MAX_ATTRIBUTES } from './xml/well-formed.js';

export type { WireFormat, DecodeOptions, EncodeOptions, BodyProblem, ReadBody } from './codec/wire-format.js';
export { readBody, DEFAULT_MAX_BODY_BYTES } from './codec/wire-format.js';
export { wireBoolean, wireDigits, isDigits } from './codec/wire-values.js';
export type { PayloadError, PayloadErrorCode } from './codec/payload-error.js';
export { payloadError } from './codec/payload-error.js';

// --- error catalogue ---
export type { ErrorEntry, RetryGuidance, MtInvalidRule, SmsErrorCode, InvokeErrorCode, DeliveryStateEntry } from './errors/catalogue.js';
export {
  MT_INVALID,
  SMS_ERRORS,
  INVOKE_ERRORS,
  INVOKE_MAX_BODY_BYTES,
  LOOKUP_CREDENTIALS_DESCRIPTION,
  DELIVERY_STATES,
  deliveryState,
} from './errors/catalogue.js';

// --- MT request (send) ---
export type {
  MtRequest,
  MtRequestOptions,
  MtDestination,
  MtSource,
  MtMessage,
  MtDelivery,
} from './mt-request/schema.js';
export { MtRequestSchema } from './mt-request/schema.js';
export type { MtRequestWire } from './mt-request/wire-schema.js';
export { MtRequestWireSchema } from './mt-request/wire-schema.js';
export type { MtInteraction, MtMessageType, MtCharset, MtMlc, MtSourceTon, MtReceiptRequested } from './mt-request/members.js';
export {
  INTERACTIONS,
  MESSAGE_TYPES,
  CHARSETS,
  MLC_VALUES,
  SOURCE_TONS,
  RECEIPT_REQUESTED_VALUES,
  MT_LIMITS,
} from './mt-request/members.js';
export type { MtRequestError } from './mt-request/validate.js';
export { validateMtRequest, mtRequestError } from './mt-request/validate.js';
export { decodeMtRequest, encodeMtRequest } from './mt-request/codec.js';

// --- status, receipt, inbound, preview, error record, multipart ---
export type { PayloadInvalidRule } from './errors/catalogue.js';
export { PAYLOAD_INVALID } from './errors/catalogue.js';
export { UTC_TIMESTAMP_PATTERN, TICKET_ID_PATTERN, TICKET_ID_MAX_LENGTH } from './resource-codec/wire-types.js';
export type { Timestamp, TimestampError, TimestampErrorKind } from './time/xs-date-time.js';
export {
  XS_DATE_TIME_PATTERN,
  parseTimestamp,
  isTimestamp,
  timestampInstant,
  compareTimestamps,
  parseUtcOffset,
  formatTimestamp,
} from './time/xs-date-time.js';
export type { StatusDestination, StatusSource } from './mt-status/status-members.js';
export { StatusDestinationSchema, StatusSourceSchema } from './mt-status/status-members.js';
export type { MtStatus, MtStatusSegment } from './mt-status/mt-status.js';
export { MtStatusSchema, MtStatusSegmentSchema, decodeMtStatus, encodeMtStatus } from './mt-status/mt-status.js';
export type { StatusInstants, SegmentInstant, ReceiptInstants } from './mt-status/status-instants.js';
export { statusInstants, receiptInstants } from './mt-status/status-instants.js';
export type { DeliveryReceipt, ReceiptStatus } from './delivery-receipt/delivery-receipt.js';
export { DeliveryReceiptSchema, ReceiptStatusSchema, decodeDeliveryReceipt, encodeDeliveryReceipt } from './delivery-receipt/delivery-receipt.js';
export type { MobileOriginate, MoSource, MoDestination, MoMessage } from './mobile-originate/mobile-originate.js';
export {
  MobileOriginateSchema,
  MoSourceSchema,
  MoDestinationSchema,
  MoMessageSchema,
  decodeMobileOriginate,
  encodeMobileOriginate,
} from './mobile-originate/mobile-originate.js';
export type { Preview, PreviewDestination, PreviewMobileOperator } from './preview/preview.js';
export { PreviewSchema, PreviewDestinationSchema, PreviewMobileOperatorSchema, decodePreview, encodePreview } from './preview/preview.js';
export type { ErrorRecord } from './error-record/error-record.js';
export { ErrorRecordSchema, decodeErrorRecord, encodeErrorRecord } from './error-record/error-record.js';
export type { InvokeErrorBody } from './error-record/invoke-error-body.js';
export { InvokeErrorBodySchema, decodeInvokeErrorBody, encodeInvokeErrorBody } from './error-record/invoke-error-body.js';
export type { MultipartPart, MultipartSummary } from './multipart/summarize-multipart.js';
export { summarizeMultipart } from './multipart/summarize-multipart.js';

// --- Invoke Service ---
export type {
  InvokeServiceRequest,
  InvokeServiceRequestWire,
  InvokeEndUser,
  InvokeVariables,
  InvokeVariableScope,
} from './invoke-service/schema.js';
export {
  InvokeServiceRequestSchema,
  InvokeServiceRequestWireSchema,
  InvokeEndUserSchema,
  InvokeVariablesSchema,
  InvokeVariableScopeSchema,
} from './invoke-service/schema.js';
export type { InvokeScope } from './invoke-service/members.js';
export { INVOKE_SCOPES, INVOKE_LIMITS } from './invoke-service/members.js';
export { DEFAULT_RESERVED_WORDS, DEFAULT_BUILT_IN_VARIABLES } from './invoke-service/defaults.js';
export type { InvokeValidationOptions } from './invoke-service/validate.js';
export { validateInvokeServiceRequest } from './invoke-service/validate.js';
export { decodeInvokeServiceRequest, encodeInvokeServiceRequest } from './invoke-service/codec.js';
export type { InvokeRequestError, InvokeRequestLineError, InvokeInvalidNames } from './invoke-service/errors.js';
export { invokeInvalidError } from './invoke-service/errors.js';
export type { InvokeServiceRequestLine } from './invoke-service/request-line.js';
export { checkInvokeServiceRequestLine, invokeServicePath, INVOKE_SERVICE_VERSION } from './invoke-service/request-line.js';
export type { InvokeInvalidRule } from './errors/catalogue.js';
export { INVOKE_INVALID } from './errors/catalogue.js';

// --- text engine ---
export type { HexCharset, HexError, HexErrorKind, HexContent, HexContentOptions, HexTextOptions } from './text/hex.js';
export { encodeHex, decodeHex, decodeHexContent, hexToBytes, bytesToHex, canEncodeHex, HEX_CHARSETS } from './text/hex.js';
export { GSM_DEFAULT_ALPHABET, GSM_EXTENSION_TABLE, GSM_ESCAPE, isGsmText, isGsmChar, gsmSeptetLength } from './text/gsm-alphabet.js';
export type {
  GsmCodecOptions,
  GsmDecodeOptions,
  GsmDecoded,
  GsmDecodeError,
  GsmDecodeErrorKind,
  GsmSubstitution,
  GsmSubstitutionKind,
} from './text/gsm-codec.js';
export { gsmEncode, gsmDecode } from './text/gsm-codec.js';
export type { NationalLanguage, IndianLanguage, LockingShiftLanguage, NationalTables } from './text/gsm-national.js';
export {
  NATIONAL_LANGUAGES,
  NATIONAL_LANGUAGE_IDS,
  LOCKING_SHIFT_TABLES,
  SINGLE_SHIFT_TABLES,
  nationalLanguageOfId,
  nationalTablesOfIds,
} from './text/gsm-national.js';
export type { CapacityUnit, ReferenceBits } from './text/capacity.js';
export { partCapacity, concatenationElementOctets, USER_DATA_OCTETS } from './text/capacity.js';
export type {
  InformationElement,
  Concatenation,
  PortAddressing,
  NationalShift,
  UserDataHeader,
  UserDataHeaderSpec,
  SplitUdh,
} from './text/udh.js';
export {
  parseUserDataHeader,
  buildUserDataHeader,
  splitUdh,
  WAP_PUSH_UDH,
  IEI_CONCATENATION_8,
  IEI_CONCATENATION_16,
  IEI_PORTS_8,
  IEI_PORTS_16,
  IEI_NATIONAL_SINGLE_SHIFT,
  IEI_NATIONAL_LOCKING_SHIFT,
} from './text/udh.js';
export type {
  EstimateMessageType,
  SmsEncoding,
  OperatorLimits,
  TextEstimateOptions,
  HexEstimateOptions,
  ForcedCharacter,
  MlcOutcomes,
  SegmentEstimate,
  TablesOutcome,
} from './text/segments.js';
export { estimateSegments, rankTables, MAX_CONCATENATED_PARTS } from './text/segments.js';
export type { Substitution, ExplainOptions, Explanation, TableChoice, LanguageCost } from './text/explain.js';
export { explain } from './text/explain.js';
export { GSM_SUBSTITUTES } from './text/gsm-substitutes.js';

// --- HTTP (sans-I/O) ---
export {
  API_VERSION_HEADER,
  CALLBACK_API_VERSION,
  STATUS_RETENTION_MS,
  RECEIPT_RETRY_WINDOW_MS,
  INBOUND_RETRY_WINDOW_MS,
  DUPLICATE_MARGIN_MS,
} from './protocol/service-facts.js';
export type { Credentials } from './http/basic-auth.js';
export { basicAuthorization, basicChallenge, parseBasicAuthorization, timingSafeEqual, credentialsMatch } from './http/basic-auth.js';
export type { ApiOperation, Endpoints } from './http/endpoints.js';
export { operationUrl, PRODUCTION_URLS, TEST_ENVIRONMENT_URLS } from './http/endpoints.js';
export type { HeadersLike } from './http/headers.js';
export { headerValue } from './http/headers.js';
export { JSON_CONTENT_TYPE, XML_CONTENT_TYPE, contentTypeFor, formatOfContentType, formatForAccept } from './http/media-type.js';
export { isTicketId, ticketIdFromLocation } from './http/ticket-id.js';
export { normalizeIpAddress, createAddressAllowList } from './http/ip-address.js';
export type { HttpRequestData, RequestContext, PreparedRequestContext, InvokeServiceRequestOptions } from './http/requests.js';
export { buildSendRequest, buildStatusRequest, buildLookupRequest, buildInvokeServiceRequest, prepareRequestContext } from './http/requests.js';
export type { HttpResponseData, ApiFailure, SendAccepted, StatusResult, LookupResult, InvokeAccepted } from './http/responses.js';
export { parseSendResponse, parseStatusResponse, parseLookupResponse, parseInvokeServiceResponse } from './http/responses.js';

// --- webhooks (receiving) ---
export type { WebhookRejectionCode, WebhookRejectionEntry, WebhookOutcome, WebhookResponse, WebhookRejectionOptions } from './webhooks/webhook-response.js';
export { WEBHOOK_REJECTIONS, REASSEMBLY_FULL_RETRY_AFTER_S, webhookAccepted, webhookRejection } from './webhooks/webhook-response.js';
export type { WebhookErrorCode, WebhookErrorOptions } from './webhooks/webhook-error.js';
export { WebhookError } from './webhooks/webhook-error.js';
export type {
  ReserveOutcome,
  MaybePromise,
  DuplicateStore,
  MemoryDuplicateStoreOptions,
  MemoryDuplicateStore,
  RedisCommand,
  RedisDuplicateStoreOptions,
} from './webhooks/duplicate-store.js';
export { createMemoryDuplicateStore, createRedisDuplicateStore } from './webhooks/duplicate-store.js';
export type { CallbackKind, ReceiptCallback, InboundCallback, Callback } from './webhooks/decode-callback.js';
export { decodeCallback, receiptKey, inboundKey } from './webhooks/decode-callback.js';
export type { InboundCharset, InboundHeader, InboundText, InboundTextOptions } from './webhooks/inbound-content.js';
export { inboundHeader, guessInboundCharset, decodeInboundText } from './webhooks/inbound-content.js';
export type {
  InboundConcatenation,
  InboundMessage,
  ReassemblerTimers,
  InboundReassemblerOptions,
  ReassemblyOutcome,
  InboundReassembler,
} from './webhooks/inbound-reassembler.js';
export { createInboundReassembler, singleInboundMessage, assembleInboundMessage, reassemblyKey } from './webhooks/inbound-reassembler.js';
export type {
  ReassemblyGroup,
  PartAddOutcome,
  ReassemblyAddOptions,
  ReassemblyFinishOptions,
  ReassemblyClaimOptions,
  ReassemblyStore,
  MemoryReassemblyStoreOptions,
  MemoryReassemblyStore,
} from './webhooks/reassembly-store.js';
export { createMemoryReassemblyStore, groupMessage, estimatePartBytes, DEFAULT_MAX_PENDING_BYTES } from './webhooks/reassembly-store.js';
export { MAX_INBOUND_PART_OCTETS } from './webhooks/part-limits.js';
export type { RedisReassemblyStoreOptions, RedisReassemblyStore } from './webhooks/redis-reassembly-store.js';
export { createRedisReassemblyStore } from './webhooks/redis-reassembly-store.js';
export type { MessagePartStatus, MessageDeliveryStatus, ReceiptAggregatorOptions, ReceiptAggregator } from './webhooks/receipt-aggregator.js';
export { foldReceipts, createReceiptAggregator } from './webhooks/receipt-aggregator.js';
export type {
  BodyReader,
  WebhookRequest,
  WebhookContext,
  DuplicateEvent,
  HandlerResult,
  BasicAuthCredentials,
  WebhookHandlerOptions,
  WebhookHandler,
} from './webhooks/webhook-handler.js';
export { createWebhookHandler } from './webhooks/webhook-handler.js';
export type { ReceiverBodyReaderOptions, StreamBodyReaderOptions } from './webhooks/body-readers.js';
export { createStreamBodyReader, createRequestBodyReader } from './webhooks/body-readers.js';
export type { NodeRequestBody, NodeRequestBodyReaderOptions } from './webhooks/node-request-body-reader.js';
export { createNodeRequestBodyReader } from './webhooks/node-request-body-reader.js';

// --- telemetry ---
export type {
  TelemetryAttributeValue,
  TelemetryAttributes,
  SpanContextLike,
  SpanLinkLike,
  SpanOptionsLike,
  SpanLike,
  TracerLike,
  CounterLike,
  HistogramLike,
  ObservableResultLike,
  ObservableGaugeLike,
  InstrumentOptionsLike,
  MeterLike,
  TracerProviderLike,
  MeterProviderLike,
  OpenTelemetryApiLike,
} from './telemetry/otel-types.js';
export type { TelemetryLogger, TelemetryLogLevel } from './telemetry/logger.js';
export { checkLogger, writeLog } from './telemetry/logger.js';
export type { TelemetryMetric } from './telemetry/telemetry-names.js';
export { TELEMETRY_SPANS, TELEMETRY_ATTRIBUTES, TELEMETRY_METRICS, DELIVERY_LATENCY_BUCKETS_S } from './telemetry/telemetry-names.js';
export type {
  TelemetryOptions,
  AttemptReport,
  CallReport,
  ClientCallObserver,
  CallContent,
  CallbackFacts,
  CallbackAnswer,
  CallbackObserver,
  QueueJobReport,
  QueueJobObserver,
  SmsTelemetry,
} from './telemetry/create-telemetry.js';
export { createTelemetry, DEFAULT_TICKET_TTL_MS } from './telemetry/create-telemetry.js';
export type { SentTicket, TicketStore, MemoryTicketStoreOptions } from './telemetry/ticket-store.js';
export { createMemoryTicketStore } from './telemetry/ticket-store.js';
export type { RedisTicketStoreOptions } from './telemetry/redis-ticket-store.js';
export { createRedisTicketStore } from './telemetry/redis-ticket-store.js';
