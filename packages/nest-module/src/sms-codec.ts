/**
 * Core's codec and estimator as an injectable service, so that they can be replaced in tests like
 * any provider. The same functions are exported by `@smsv4/core`; this class adds nothing to them.
 */
import { Injectable } from '@nestjs/common';
import {
  decodeDeliveryReceipt,
  decodeErrorRecord,
  decodeMobileOriginate,
  decodeMtRequest,
  decodeMtStatus,
  decodePreview,
  encodeMtRequest,
  estimateSegments,
  explain,
  foldReceipts,
  summarizeMultipart,
  validateMtRequest,
} from '@smsv4/core';

/**
 * `@smsv4/core`'s codecs (JSON and XML, `Result` values, never throwing on bad input), validation
 * and segment estimator, injectable by class.
 *
 * @example
 * constructor(@Inject(SmsCodec) private readonly codec: SmsCodec) {}
 *
 * const estimate = this.codec.estimateSegments('Your code is 1234', { operator: preview.mobileOperator });
 * if (estimate.segments > 1) ...
 */
@Injectable()
export class SmsCodec {
  /** Encodes an MT request in JSON or XML (`encodeMtRequest`). */
  readonly encodeMtRequest = encodeMtRequest;
  /** Decodes an MT request; the error is the service's own 540 (`decodeMtRequest`). */
  readonly decodeMtRequest = decodeMtRequest;
  /** Checks an MT request as the service would, without sending it (`validateMtRequest`). */
  readonly validateMtRequest = validateMtRequest;
  /** Decodes a message status (`decodeMtStatus`). */
  readonly decodeMtStatus = decodeMtStatus;
  /** Decodes a delivery receipt (`decodeDeliveryReceipt`). */
  readonly decodeDeliveryReceipt = decodeDeliveryReceipt;
  /** Decodes an inbound message (`decodeMobileOriginate`). */
  readonly decodeMobileOriginate = decodeMobileOriginate;
  /** Decodes an operator lookup result (`decodePreview`). */
  readonly decodePreview = decodePreview;
  /** Decodes an error record (`decodeErrorRecord`). */
  readonly decodeErrorRecord = decodeErrorRecord;
  /** Encoding, parts and cost of a message, with an operator's limits when given (`estimateSegments`). */
  readonly estimateSegments = estimateSegments;
  /** Why a text costs what it costs, and the substitutions that would make it cheaper (`explain`). */
  readonly explain = explain;
  /** The summary code of a multipart message's parts (`summarizeMultipart`). */
  readonly summarizeMultipart = summarizeMultipart;
  /** The message-level status of per-part receipts (`foldReceipts`). */
  readonly foldReceipts = foldReceipts;
}
