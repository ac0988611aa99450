/**
 * What a piece of work leaves on the heap: for the tests of what the stores keep alive.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs `work` between two forced garbage collections and tells how many heap bytes what it made
 * still holds after the second (what it returns is kept alive until then).
 */
export function heldBytes<T>(work: () => T): { value: T; bytes: number } {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const value = work();
  gc();
  return { value, bytes: process.memoryUsage().heapUsed - before };
}
