// Public entry point of @smsv4/core. Every public symbol is exported here by name.

// --- foundation ---
export type { Result } from './result.js';
export { ok, err } from './result.js';
export type { BodyInput, BodyTextError } from './body/body-text.js';
export { bodyToText, utf8ByteLength, utf8Encode } from './body/body-text.js';
export type { StrictJsonError, StrictJsonOptions } from './json/strict-json.js';
export { parseStrictJson } from './json/strict-json.js';
export type { XmlDocument, XmlElement, XmlValue, XmlProblem, ParseXmlOptions } from './xml/xml-document.js';
export { parseXmlDocument, XML_NAMESPACES } from './xml/xml-document.js';
export type { WellFormedProblem } from './xml/well-formed.js';
export { checkWellFormed } from './xml/well-formed.js';

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

// --- status, receipt, inbound, preview, error record, multipart ---

// --- Invoke Service ---

// --- text engine ---

// --- HTTP (sans-I/O) ---
