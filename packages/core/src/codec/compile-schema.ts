import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Errors, type ValueErrorIterator } from '@sinclair/typebox/errors';
import { Check } from '@sinclair/typebox/value';

/** A schema check built once and run on the hot path; errors are collected only when asked for. */
export interface SchemaCheck<T extends TSchema> {
  /** `true` when the value matches the schema. */
  Check(value: unknown): value is Static<T>;
  /** The errors of a value that does not match (iterate only on failure). */
  Errors(value: unknown): ValueErrorIterator;
}

/**
 * Compiles a TypeBox schema into a fast check, on the first call of `Check` or `Errors` (creating
 * the check at module load costs nothing). The compiler generates code with `new Function`, which
 * some runtimes forbid (Cloudflare Workers, pages with a strict Content Security Policy); there the
 * same check runs through TypeBox's interpreter instead, with the same answers.
 */
export function compileSchema<T extends TSchema>(schema: T): SchemaCheck<T> {
  const check: SchemaCheck<T> = {
    Check(value: unknown): value is Static<T> {
      return compile().Check(value);
    },
    Errors(value: unknown): ValueErrorIterator {
      return compile().Errors(value);
    },
  };
  // The first call replaces both methods with the compiled ones: no indirection after it.
  const compile = (): SchemaCheck<T> => {
    const compiled = compileNow(schema);
    check.Check = compiled.Check;
    check.Errors = compiled.Errors;
    return compiled;
  };
  return check;
}

function compileNow<T extends TSchema>(schema: T): SchemaCheck<T> {
  try {
    const compiled = TypeCompiler.Compile(schema);
    return { Check: compiled.Check.bind(compiled), Errors: compiled.Errors.bind(compiled) };
  } catch {
    return {
      Check: (value: unknown): value is Static<T> => Check(schema, value),
      Errors: (value: unknown) => Errors(schema, value),
    };
  }
}
