import type { TSchema } from '@sinclair/typebox';
import { timestampProblem, type TimestampError } from '../time/xs-date-time.js';

/** A timestamp member the reader refused: where it is (a JSON pointer, `/segments/1/deliveryDate`) and why. */
export interface TimestampFault {
  readonly pointer: string;
  readonly error: TimestampError;
}

/**
 * Finds the first timestamp member (`wireTimestamp`) of a value that the timestamp reader refuses,
 * in the schema's order; `undefined` when there is none. Only to be run on a value the schema
 * check accepted (strings where timestamps are expected, lists where lists are).
 */
export type TimestampCheck = (value: unknown) => TimestampFault | undefined;

type Step = (value: unknown, pointer: string) => TimestampFault | undefined;

const none: TimestampCheck = () => undefined;

const own = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;

/** The checks of the timestamp members under an object schema, or `undefined` when it has none. */
function objectSteps(schema: TSchema): Step | undefined {
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const steps: Step[] = [];
  for (const key of Object.keys(properties)) {
    const member = properties[key] as TSchema;
    if (member.type === 'string' && member.wireTimestamp === true) {
      steps.push((value, pointer) => {
        const text = own(value, key);
        if (typeof text !== 'string') return undefined;
        const error = timestampProblem(text);
        return error === undefined ? undefined : { pointer: `${pointer}/${key}`, error };
      });
    } else if (member.type === 'object') {
      const inner = objectSteps(member);
      if (inner !== undefined) steps.push((value, pointer) => inner(own(value, key), `${pointer}/${key}`));
    } else if (member.type === 'array' && (member.items as TSchema | undefined)?.type === 'object') {
      const inner = objectSteps(member.items as TSchema);
      if (inner !== undefined) {
        steps.push((value, pointer) => {
          const list = own(value, key);
          if (!Array.isArray(list)) return undefined;
          for (let i = 0; i < list.length; i++) {
            const fault = inner(list[i], `${pointer}/${key}/${i}`);
            if (fault !== undefined) return fault;
          }
          return undefined;
        });
      }
    }
  }
  if (steps.length === 0) return undefined;
  return (value, pointer) => {
    for (const step of steps) {
      const fault = step(value, pointer);
      if (fault !== undefined) return fault;
    }
    return undefined;
  };
}

/** Builds the {@link TimestampCheck} of a resource schema, once (a no-op for a schema without timestamps). */
export function compileTimestampCheck(schema: TSchema): TimestampCheck {
  const steps = objectSteps(schema);
  return steps === undefined ? none : (value) => steps(value, '');
}
