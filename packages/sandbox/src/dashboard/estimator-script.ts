/**
 * The browser bundle of core's `estimateSegments` and `explain` that the dashboard page inlines for
 * its compose form (a script declaring `var smsv4Text`). The build (tsup) and the tests (vitest) put
 * the bundle made by `scripts/estimator-bundle.mjs` in place of this module; run from source in any
 * other way, the page cannot be rendered and says so.
 */
export const ESTIMATOR_SCRIPT: string | undefined = undefined;
