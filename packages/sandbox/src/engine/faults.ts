/**
 * Fault injection for client tests: the next N calls of an operation answer 1010 or 1000, wait
 * first, or lose their connection after the request was processed.
 */
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

/** The operations a fault can target. */
export type FaultOperation = 'send' | 'status' | 'lookup' | 'invokeService';

/** TypeBox schema of a {@link Fault}. */
export const FaultSchema = Type.Object(
  {
    operation: Type.Union([Type.Literal('send'), Type.Literal('status'), Type.Literal('lookup'), Type.Literal('invokeService')]),
    kind: Type.Union([Type.Literal('1010'), Type.Literal('1000'), Type.Literal('latency'), Type.Literal('drop-after-accept')]),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    latencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
  },
  { additionalProperties: false },
);

/**
 * A fault for the next `count` (default 1) calls of `operation`:
 * - `1010` / `1000`: the call is answered with that error (SMS codes from `SMS_ERRORS`, Invoke
 *   Service codes from `INVOKE_ERRORS`). A send hit by `1000` is still processed when valid: as
 *   the spec warns, the message may already have gone to the operator;
 * - `latency`: the call waits `latencyMs` real milliseconds (default 1000) before it is processed;
 * - `drop-after-accept`: the call is processed (a send is stored and proceeds) but the connection
 *   is destroyed before the response; only successful calls consume it.
 */
export type Fault = Static<typeof FaultSchema>;

const checkFault = TypeCompiler.Compile(FaultSchema);

/** Validates a fault (e.g. a parsed request body). */
export function parseFault(value: unknown): { ok: true; value: Fault } | { ok: false; error: { description: string } } {
  if (checkFault.Check(value)) return { ok: true, value };
  const first = checkFault.Errors(value).First();
  return { ok: false, error: { description: first === undefined ? 'invalid fault' : `${first.path || '/'}: ${first.message}` } };
}

/** The faults waiting for their calls. */
export interface FaultQueue {
  add(fault: Fault): void;
  clear(): void;
  /** Takes one use of the first `1010`/`1000`/`latency` fault of the operation, if any. */
  takeBefore(operation: FaultOperation): { kind: '1010' | '1000' } | { kind: 'latency'; latencyMs: number } | undefined;
  /** Takes one use of the operation's `drop-after-accept` fault, if any. */
  takeDrop(operation: FaultOperation): boolean;
  list(): Fault[];
}

/** A queue of faults, consumed in the order they were added. */
export function createFaultQueue(): FaultQueue {
  let faults: { fault: Fault; remaining: number }[] = [];
  const take = (index: number): Fault => {
    const entry = faults[index] as { fault: Fault; remaining: number };
    entry.remaining--;
    if (entry.remaining <= 0) faults.splice(index, 1);
    return entry.fault;
  };
  return {
    add: (fault) => void faults.push({ fault, remaining: fault.count ?? 1 }),
    clear: () => void (faults = []),
    takeBefore(operation) {
      const index = faults.findIndex((f) => f.fault.operation === operation && f.fault.kind !== 'drop-after-accept');
      if (index === -1) return undefined;
      const fault = take(index);
      if (fault.kind === 'latency') return { kind: 'latency', latencyMs: fault.latencyMs ?? 1000 };
      return { kind: fault.kind as '1010' | '1000' };
    },
    takeDrop(operation) {
      const index = faults.findIndex((f) => f.fault.operation === operation && f.fault.kind === 'drop-after-accept');
      if (index === -1) return false;
      take(index);
      return true;
    },
    list: () => faults.map((f) => ({ ...f.fault, count: f.remaining })),
  };
}

/**
 * Thrown (in-process) or turned into a destroyed socket (Node listener) when a `drop-after-accept`
 * fault fires. A `TypeError`, as `fetch` rejects on a network failure.
 */
export class ConnectionDroppedError extends TypeError {
  override readonly name = 'ConnectionDroppedError';
  /** The operation whose response was lost. */
  readonly operation: FaultOperation;
  /** The ticket ID of a dropped send's accepted message. */
  readonly ticketId?: string;

  constructor(operation: FaultOperation, ticketId?: string) {
    super('fetch failed: the sandbox dropped the connection after processing the request (drop-after-accept fault)');
    this.operation = operation;
    if (ticketId !== undefined) this.ticketId = ticketId;
  }
}
