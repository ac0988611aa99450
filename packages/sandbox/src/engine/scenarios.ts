/**
 * Delivery scenarios: what the simulated operator does with the messages sent to one destination
 * address (or to every address, under the key `*`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

const DelayMs = Type.Integer({ minimum: 0, maximum: 30 * 24 * 3_600_000 });

/** TypeBox schema of a {@link Scenario}. */
export const ScenarioSchema = Type.Union([
  Type.Object({ kind: Type.Literal('delivered'), delayMs: Type.Optional(DelayMs) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('delayed'), delayMs: DelayMs }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('expired') }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal('fail-part'), segmentNumber: Type.Integer({ minimum: 1, maximum: 255 }), code: Type.Optional(Type.Integer({ minimum: 0 })) },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('no-receipt'), segmentNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 255 })) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('rejected'), code: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
]);

/**
 * What happens to the messages of a destination:
 * - `delivered`: every part delivered (code 4) after `delayMs` simulated ms (default 1000); the default;
 * - `delayed`: the same, late;
 * - `expired`: every part 811 when the validity period elapses (after 1 simulated hour without one);
 * - `fail-part`: part `segmentNumber` fails with `code` (default 811), the others are delivered (summary 830);
 * - `no-receipt`: the operator never reports part `segmentNumber` (or any part): it stays at 3, no receipt (summary 831);
 * - `rejected`: every part final with `code` (e.g. 351, 607).
 */
export type Scenario = Static<typeof ScenarioSchema>;

const checkScenario = TypeCompiler.Compile(ScenarioSchema);

/** Validates a scenario (e.g. a parsed request body); the description names the first problem. */
export function parseScenario(value: unknown): { ok: true; value: Scenario } | { ok: false; error: { description: string } } {
  if (checkScenario.Check(value)) return { ok: true, value };
  const kind = (value as { kind?: unknown } | null)?.kind;
  const kinds = ['delivered', 'delayed', 'expired', 'fail-part', 'no-receipt', 'rejected'];
  if (typeof kind !== 'string' || !kinds.includes(kind)) return { ok: false, error: { description: `kind must be one of ${kinds.join(', ')}` } };
  // The union's own errors name every branch; report the first one of the branch the kind selects.
  const branch = ScenarioSchema.anyOf[kinds.indexOf(kind)] as Parameters<typeof TypeCompiler.Compile>[0];
  const first = TypeCompiler.Compile(branch).Errors(value).First();
  return { ok: false, error: { description: first === undefined ? 'invalid scenario' : `${first.path || '/'}: ${first.message}` } };
}

/** The key of the scenario that applies to every destination without its own. */
export const ANY_DESTINATION = '*';
