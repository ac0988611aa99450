import type { Static } from '@sinclair/typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type { Result } from '../result.js';
import type { decodeMtRequest, encodeMtRequest } from './codec.js';
import type { MtRequestSchema, MtRequest } from './schema.js';
import type { MtRequestError, validateMtRequest } from './validate.js';

describe('MT request types', () => {
  it('MtRequestSchema describes exactly MtRequest', () => {
    expectTypeOf<Static<typeof MtRequestSchema>>().toEqualTypeOf<MtRequest>();
  });

  it('decoders return a Result of MtRequest or a 540 error', () => {
    expectTypeOf<ReturnType<typeof decodeMtRequest>>().toEqualTypeOf<Result<MtRequest, MtRequestError>>();
    expectTypeOf<ReturnType<typeof validateMtRequest>>().toEqualTypeOf<Result<MtRequest, MtRequestError>>();
    expectTypeOf<MtRequestError['code']>().toEqualTypeOf<'540'>();
    expectTypeOf<ReturnType<typeof encodeMtRequest>>().toEqualTypeOf<string>();
  });

  it('narrows members to their spec values', () => {
    expectTypeOf<MtRequest['message']['type']>().toEqualTypeOf<'text' | 'hexEncodedText' | 'binary' | 'wapPush'>();
    expectTypeOf<NonNullable<MtRequest['source']>['ton']>().toEqualTypeOf<1 | 3 | 5 | undefined>();
    expectTypeOf<NonNullable<MtRequest['message']['charset']>>().toEqualTypeOf<'GSM' | 'Latin-1' | 'UTF-8' | 'UTF-16'>();
    expectTypeOf<NonNullable<MtRequest['delivery']>['receiptRequested']>().toEqualTypeOf<'final'>();
  });
});
