import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileSchema } from './compile-schema.js';

const schema = Type.Object({ code: Type.Integer({ minimum: 0 }), description: Type.Optional(Type.String()) });

describe('compileSchema', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks values and reports the first error', () => {
    const check = compileSchema(schema);
    expect(check.Check({ code: 4 })).toBe(true);
    expect(check.Check({ code: -1 })).toBe(false);
    expect(check.Errors({ code: 'x' }).First()?.path).toBe('/code');
  });

  it('gives the same answers where code generation is forbidden (Workers, strict CSP)', () => {
    vi.stubGlobal('Function', function forbidden() {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    const check = compileSchema(schema);
    for (const value of [{ code: 4 }, { code: -1 }, { code: 1.5 }, { code: 1, description: 2 }, null, [], 'x']) {
      expect(check.Check(value)).toBe(Value(value));
    }
    expect(check.Errors({ code: 'x' }).First()?.path).toBe('/code');
  });
});

function Value(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) &&
    Number.isInteger((value as { code?: unknown }).code) && ((value as { code: number }).code >= 0) &&
    ((value as { description?: unknown }).description === undefined || typeof (value as { description?: unknown }).description === 'string')
  );
}
