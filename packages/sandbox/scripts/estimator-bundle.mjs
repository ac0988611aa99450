// The browser bundle of core's estimateSegments and explain, for the dashboard's compose form: made
// with esbuild from the built @smsv4/core's text counter entry point, `@smsv4/core/segments` (text
// only, no national tables: the form counts with the default alphabet), and put in place of
// src/dashboard/estimator-script.ts by the build (tsup) and by the tests (vitest).
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const MODULE = /[\\/]src[\\/]dashboard[\\/]estimator-script\.ts$/;

/** The bundle: a script declaring `var smsv4Text = { estimateSegments, explain }`. */
export async function bundleEstimator() {
  const result = await build({
    stdin: { contents: "export { estimateSegments, explain } from '@smsv4/core/segments';", resolveDir: packageDir, loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'smsv4Text',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

const moduleSource = async () => `export const ESTIMATOR_SCRIPT = ${JSON.stringify(await bundleEstimator())};\n`;

/** For tsup (esbuild). */
export const esbuildEstimatorPlugin = {
  name: 'smsv4-dashboard-estimator',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: MODULE }, async () => ({ contents: await moduleSource(), loader: 'js' }));
  },
};

/** For vitest (vite). */
export const viteEstimatorPlugin = {
  name: 'smsv4-dashboard-estimator',
  enforce: 'pre',
  async load(id) {
    return MODULE.test(id.split('?')[0]) ? moduleSource() : undefined;
  },
};
