/**
 * Change notifications: every state change of the sandbox is announced to its subscribers (the
 * SSE endpoint of the dashboard, tests waiting for an event).
 */
import type { SandboxChange } from './views.js';

/** A subscriber to changes. */
export type ChangeListener = (change: SandboxChange) => void;

/** Fan-out of changes to subscribers. */
export interface ChangeFeed {
  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: ChangeListener): () => void;
  /** Announces a change to every listener (a throwing listener does not stop the others). */
  emit(kind: SandboxChange['kind']): void;
  /** Removes every listener. */
  clear(): void;
}

/** Creates a {@link ChangeFeed}. */
export function createChangeFeed(): ChangeFeed {
  const listeners = new Set<ChangeListener>();
  return {
    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError('listener must be a function');
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit(kind) {
      const change: SandboxChange = { kind };
      for (const listener of [...listeners]) {
        try {
          listener(change);
        } catch {
          // One subscriber's failure is not the sandbox's.
        }
      }
    },
    clear: () => listeners.clear(),
  };
}
