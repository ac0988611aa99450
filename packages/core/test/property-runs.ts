/**
 * How many cases each property test runs: the full count in CI, a fifth of it in a local run.
 *
 * - `SMSV4_PROPERTY_RUNS=full` or `quick` chooses; unset, `CI` decides (set to anything but `false`
 *   or `0`, as CI services set it, and as `.ci/run` does: full).
 * - The quick profile runs `ceil(count / 5)` cases of each property (at least one), and 20 instead
 *   of fast-check's default 100 where a property names no count (test/property-profile.ts).
 * - The test summary names the profile of the run.
 */
export type PropertyProfile = 'full' | 'quick';

/** The profile of this run, from the environment. */
export function propertyProfile(env: Readonly<Record<string, string | undefined>> = process.env): PropertyProfile {
  const chosen = env.SMSV4_PROPERTY_RUNS?.trim().toLowerCase();
  if (chosen === 'full' || chosen === 'quick') return chosen;
  if (chosen !== undefined && chosen !== '') throw new Error(`SMSV4_PROPERTY_RUNS must be full or quick, not ${JSON.stringify(env.SMSV4_PROPERTY_RUNS)}`);
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0' ? 'full' : 'quick';
}

/** What the quick profile keeps of a count. */
export const QUICK_SHARE = 5;

/** The number of cases to run of a property whose full count is `full`. */
export function runs(full: number, profile: PropertyProfile = propertyProfile()): number {
  return profile === 'full' ? full : Math.max(1, Math.ceil(full / QUICK_SHARE));
}
