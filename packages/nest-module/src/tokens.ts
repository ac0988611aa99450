/**
 * Injection tokens of the module. Strings, not symbols or classes, so that an application that
 * loads the package twice (once as ESM, once as CommonJS) still finds one provider per token.
 */
import { Inject } from '@nestjs/common';

/** The token of the resolved {@link SmsModuleOptions} (what `forRoot` got, or what the async factory returned). */
export const SMS_MODULE_OPTIONS = '@smsv4/nest-module:options';

/** The token of the injected client (`SmsClient` of `@smsv4/transport-fetch`). */
export const SMS_CLIENT = '@smsv4/nest-module:client';

/**
 * Injects the client into a constructor parameter or a property.
 *
 * @example
 * constructor(@InjectSmsClient() private readonly sms: SmsClient) {}
 */
export function InjectSmsClient(): PropertyDecorator & ParameterDecorator {
  return Inject(SMS_CLIENT);
}

/**
 * Injects the module's options (already checked).
 *
 * @example
 * constructor(@InjectSmsOptions() private readonly options: SmsModuleOptions) {}
 */
export function InjectSmsOptions(): PropertyDecorator & ParameterDecorator {
  return Inject(SMS_MODULE_OPTIONS);
}
