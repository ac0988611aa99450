import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value, type ValueErrorIterator } from '@sinclair/typebox/value';

/** A schema check built once and run on the hot path; errors are collected only when asked for. */
export interface SchemaCheck<T extends TSchema> {
  /** `true` when the value matches the schema. */
  Check(value: unknown): value is Static<T>;
  /** The errors of a value that does not match (iterate only on failure). */
  Errors(value: unknown): ValueErrorIterator;
}

/**
 * Compiles a TypeBox schema into a fast check. The compiler generates code with `new Function`,
 * which some runtimes forbid (Cloudflare Workers, pages with a strict Content Security Policy); there
 * the same check runs through TypeBox's interpreter instead, with the same answers.
 */
export function compileSchema<T extends TSchema>(schema: T): SchemaCheck<T> {
  try {
    return TypeCompiler.Compile(schema);
  } catch {
    return {
      Check: (value: unknown): value is Static<T> => Value.Check(schema, value),
      Errors: (value: unknown) => Value.Errors(schema, value),
    };
  }
}
