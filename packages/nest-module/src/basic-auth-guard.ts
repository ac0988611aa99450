/**
 * The optional Basic authentication of the webhook route, as a Nest guard: active when
 * `webhooks.basicAuth` is set, a pass-through otherwise. The service does not sign callbacks; it
 * can send Basic credentials to your URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpException, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import {
  WEBHOOK_REJECTIONS,
  basicChallenge,
  createTelemetry,
  credentialsMatch,
  parseBasicAuthorization,
  type BasicAuthCredentials,
  type Credentials,
  type SmsTelemetry,
  type TelemetryLogger,
} from '@smsv4/core';
import { SmsModuleError } from './sms-module-error.js';
import type { SmsModuleOptions } from './sms-module-options.js';
import { SMS_MODULE_OPTIONS } from './tokens.js';

/**
 * Refuses requests without the credentials of `webhooks.basicAuth` (one pair, or several while
 * rotating; every pair is compared in constant time with core's `credentialsMatch`): 401 with
 * `WWW-Authenticate: Basic realm="<realm>", charset="UTF-8"`, thrown as an `HttpException` so your
 * exception filters see it. Applied to the webhook controller; usable on routes of your own with
 * `@UseGuards(SmsBasicAuthGuard)` in a module that imports `SmsModule`. A refused request is reported
 * to `webhooks.telemetry` (or `webhooks.logger`) as core's receiver reports its own 401: one
 * `smsv4 receive unknown` span, one `smsv4.receiver.callbacks` point with outcome `rejected` and
 * rejection `unauthorized`, one warning line.
 */
@Injectable()
export class SmsBasicAuthGuard implements CanActivate {
  readonly #allowed: readonly Credentials[] | undefined;
  readonly #challenge: string;
  readonly #telemetry: SmsTelemetry | undefined;

  constructor(@Inject(SMS_MODULE_OPTIONS) options: SmsModuleOptions) {
    const { basicAuth, realm = 'sms-callbacks', telemetry, logger } = options.webhooks ?? {};
    this.#challenge = basicChallenge(realm);
    if (basicAuth === undefined) {
      this.#allowed = undefined;
      this.#telemetry = undefined;
      return;
    }
    this.#telemetry = guardTelemetry(telemetry, logger);
    const pairs: readonly BasicAuthCredentials[] = Array.isArray(basicAuth) ? basicAuth : [basicAuth as BasicAuthCredentials];
    if (pairs.length === 0) throw new SmsModuleError('invalid-options', 'SmsModule: webhooks.basicAuth needs at least one pair of credentials');
    for (const pair of pairs) {
      if (typeof pair?.username !== 'string' || typeof pair.password !== 'string' || pair.username.includes(':')) {
        throw new SmsModuleError('invalid-options', 'SmsModule: webhooks.basicAuth credentials need a username without a colon and a password, both strings');
      }
      if (pair.username === '' || pair.password === '') {
        throw new SmsModuleError('invalid-options', 'SmsModule: webhooks.basicAuth credentials need a non-empty username and a non-empty password (empty ones are guessed at once)');
      }
    }
    this.#allowed = pairs.map(({ username, password }) => ({ accountId: username, password }));
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    if (this.authorizes(http.getRequest<IncomingMessage>().headers.authorization)) return true;
    const response = http.getResponse<ServerResponse>();
    response.setHeader('www-authenticate', this.#challenge);
    // Answered before the body is read: the connection is closed rather than a stranger's body read to keep it.
    response.setHeader('connection', 'close');
    const { status, description } = WEBHOOK_REJECTIONS.unauthorized;
    throw new HttpException(description, status);
  }

  /**
   * Whether an `Authorization` header carries credentials of `webhooks.basicAuth` (always, without
   * it). A refusal is reported to the telemetry. The webhook route calls it before any body parsing.
   */
  authorizes(authorization: string | undefined): boolean {
    const allowed = this.#allowed;
    if (allowed === undefined) return true;
    const presented = parseBasicAuthorization(authorization);
    let match = false;
    // Every pair is compared, so the time taken does not tell which one matched.
    for (const expected of allowed) if (credentialsMatch(presented, expected)) match = true;
    if (match) return true;
    const { status } = WEBHOOK_REJECTIONS.unauthorized;
    try {
      this.#telemetry?.callback().end({ status, outcome: 'rejected', rejection: 'unauthorized' });
    } catch {
      // Telemetry must not change the answer the service gets.
    }
    return false;
  }

  /** Whether `webhooks.basicAuth` is set (without it, every request is let through). */
  get checksCredentials(): boolean {
    return this.#allowed !== undefined;
  }

  /** The `WWW-Authenticate` challenge of a refusal. */
  get challenge(): string {
    return this.#challenge;
  }
}

/** The telemetry the receiver reports to: `telemetry`, else a logger-only one; checked as core checks it. */
function guardTelemetry(telemetry: SmsTelemetry | undefined, logger: TelemetryLogger | undefined): SmsTelemetry | undefined {
  if (telemetry !== undefined) {
    if (telemetry === null || typeof telemetry !== 'object' || typeof telemetry.callback !== 'function') {
      throw new SmsModuleError('invalid-options', "SmsModule: webhooks: telemetry must be the result of core's createTelemetry");
    }
    return telemetry;
  }
  if (logger === undefined) return undefined;
  try {
    return createTelemetry({ logger });
  } catch (e) {
    throw new SmsModuleError('invalid-options', `SmsModule: webhooks: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
