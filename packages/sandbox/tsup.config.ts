import { defineConfig } from 'tsup';
import { esbuildEstimatorPlugin } from './scripts/estimator-bundle.mjs';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'node',
  // The dashboard's compose form counts parts with core's estimator, bundled for the browser.
  esbuildPlugins: [esbuildEstimatorPlugin],
});
