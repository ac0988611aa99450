// The `@smsv4/core/segments` entry point as a program loads it: through the package's `exports`,
// from the built files (CommonJS and ESM), counting as the main entry point does.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { estimateSegments as mainEstimate, explain as mainExplain } from '../src/index.js';
import type * as Segments from '../src/segments.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const text = 'नमस्ते, आपका कोड 4821 है। '.repeat(8);

describe('@smsv4/core/segments, built', () => {
  it('resolves through the exports map to the CommonJS build, which counts as the main entry point does', () => {
    const require = createRequire(join(packageDir, 'package.json'));
    expect(require.resolve('@smsv4/core/segments')).toBe(join(packageDir, 'dist/segments.cjs'));
    const lean = require('@smsv4/core/segments') as typeof Segments;
    expect(lean.estimateSegments(text, { nationalLanguages: [lean.hindi] })).toEqual(mainEstimate(text, { nationalLanguages: ['hindi'] }));
    expect(lean.explain(text, { nationalLanguages: [lean.urdu, lean.hindi] })).toEqual(mainExplain(text, { nationalLanguages: ['urdu', 'hindi'] }));
  });

  it('loads as ESM from the built file, which counts as the main entry point does', async () => {
    const lean = (await import(pathToFileURL(join(packageDir, 'dist/segments.js')).href)) as typeof Segments;
    expect(lean.estimateSegments(text, { nationalLanguages: [lean.turkish, lean.hindi] })).toEqual(mainEstimate(text, { nationalLanguages: ['turkish', 'hindi'] }));
    expect(lean.explain('Price: 5 € … “ok”')).toEqual(mainExplain('Price: 5 € … “ok”'));
  });
});
