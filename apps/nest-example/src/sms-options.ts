import type { ConfigService } from '@nestjs/config';
import { PRODUCTION_URLS, TEST_ENVIRONMENT_URLS } from '@smsv4/core';
import type { SmsModuleOptions } from '@smsv4/nest-module';

/** The sandbox app's address and default account (`pnpm --filter @smsv4/sandbox-app start`). */
const SANDBOX = { baseUrl: 'http://127.0.0.1:4010', accountId: 'sandbox', password: 'sandbox-password' };

/**
 * The options of SmsModule, from the environment:
 *
 * - `SMS_ENVIRONMENT`: `sandbox` (default), `test` (the service's test hosts) or `production`;
 * - `SMS_BASE_URL`: the sandbox's address (default http://127.0.0.1:4010);
 * - `SMS_ACCOUNT_ID`, `SMS_PASSWORD`: required outside the sandbox;
 * - `SMS_CALLBACK_USERNAME`, `SMS_CALLBACK_PASSWORD`: Basic credentials the callbacks must carry;
 *   required outside the sandbox (whose callbacks carry none, so that it takes them from anyone).
 */
export function smsOptionsFromConfig(config: ConfigService): SmsModuleOptions {
  const environment = config.get<string>('SMS_ENVIRONMENT', 'sandbox');
  const username = config.get<string>('SMS_CALLBACK_USERNAME');
  const webhooks =
    username !== undefined
      ? { basicAuth: { username, password: config.getOrThrow<string>('SMS_CALLBACK_PASSWORD') } }
      : environment === 'sandbox'
        ? { allowUnauthenticated: true }
        : undefined;
  if (webhooks === undefined) {
    throw new Error('SMS_CALLBACK_USERNAME and SMS_CALLBACK_PASSWORD are required outside the sandbox: without them anyone who learns the callback URL could post forged receipts and inbound messages');
  }
  if (environment === 'sandbox') {
    return {
      client: {
        baseUrl: config.get<string>('SMS_BASE_URL', SANDBOX.baseUrl),
        accountId: config.get<string>('SMS_ACCOUNT_ID', SANDBOX.accountId),
        password: config.get<string>('SMS_PASSWORD', SANDBOX.password),
      },
      webhooks,
    };
  }
  if (environment !== 'test' && environment !== 'production') throw new Error(`SMS_ENVIRONMENT must be sandbox, test or production, got ${environment}`);
  return {
    client: {
      urls: environment === 'production' ? PRODUCTION_URLS : TEST_ENVIRONMENT_URLS,
      accountId: config.getOrThrow<string>('SMS_ACCOUNT_ID'),
      password: config.getOrThrow<string>('SMS_PASSWORD'),
    },
    webhooks,
  };
}
