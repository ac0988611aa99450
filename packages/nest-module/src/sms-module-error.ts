/** Why the module refused to start (a closed set). */
export type SmsModuleErrorCode =
  /** An option is missing or has the wrong type or value (the client's and the receiver's own checks included). */
  | 'invalid-options'
  /** `webhookPath` is set but no provider has an `@OnDeliveryReceipt()` or `@OnInboundMessage()` method. */
  | 'no-webhook-handlers'
  /** A decorated handler sits on a provider that is not a singleton (request-scoped or transient). */
  | 'invalid-handler'
  /** The application does not run on the Express platform the webhook controller needs. */
  | 'unsupported-platform';

/** Options of {@link SmsModuleError}. */
export interface SmsModuleErrorOptions {
  readonly cause?: unknown;
}

/**
 * A configuration error found at start-up: the application does not boot. A `TypeError` (a
 * programmer's misuse), with a `code` from a closed set; `cause` holds the error of the check that
 * failed (e.g. the client's own `TypeError`).
 */
export class SmsModuleError extends TypeError {
  override readonly name = 'SmsModuleError';
  readonly code: SmsModuleErrorCode;

  constructor(code: SmsModuleErrorCode, message: string, { cause }: SmsModuleErrorOptions = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
  }
}
