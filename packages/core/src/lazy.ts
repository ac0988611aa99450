/**
 * Defers work to its first use: returns a function that calls `make` once, on its first call, and
 * returns that same value from then on. Module-level compiled checks, readers and parser instances
 * are held this way, so that importing core does no work and a bundler can drop what is unused.
 */
export function lazy<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}
