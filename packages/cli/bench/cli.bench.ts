/**
 * What the CLI costs on top of core, measured in one run against baselines:
 *
 * 1. `validatePayload` (format and resource detection, then the decoder) on every JSON and XML
 *    payload fixture of the core's tests, against calling the right core decoder directly with the
 *    resource and format known (the baseline). The target: detection costs at most 50 % more.
 * 2. Start-up of the built binary (`node dist/cli.js --version`) against `node -e 0` (the baseline,
 *    Node's own start-up), and a whole `smsv4 validate` run over the same fixtures: what a CI step
 *    pays per invocation and per payload.
 *
 * Run (after building core, the sandbox, transport-fetch and this package):
 * `npx -y pnpm@10.34.8 --filter smsv4 bench` (add `-- --dry-run` to print without writing BENCHMARKS.md).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  decodeDeliveryReceipt,
  decodeErrorRecord,
  decodeInvokeErrorBody,
  decodeInvokeServiceRequest,
  decodeMobileOriginate,
  decodeMtRequest,
  decodeMtStatus,
  decodePreview,
  type WireFormat,
} from '@smsv4/core';
import { Bench } from 'tinybench';
import { writeReportBlock } from '../../../tooling/bench/src/report-file.js';
import type * as Sources from '../src/index.js';

// The built package is measured (what users run); its types are those of the sources.
const { validatePayload } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof Sources;

const DRY_RUN = process.argv.includes('--dry-run');
const COMMAND = 'npx -y pnpm@10.34.8 --filter smsv4 bench';
const TARGET = 1.5;
const BINARY = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../core/test/fixtures/', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

const paths = filesUnder(FIXTURES).filter((path) => /\.(json|xml)$/.test(path) && !path.includes('/expected/'));
interface Payload {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly resource: Sources.ResourceName;
  readonly format: WireFormat;
}
// The resource each payload is detected as, so that the baseline calls the same decoder.
const payloads: Payload[] = paths.flatMap((path) => {
  const bytes = new Uint8Array(readFileSync(path));
  const verdict = validatePayload(bytes, path, path.includes('/invoke-service/') ? { resource: 'invoke-service-request' } : {});
  return verdict.resource === undefined || verdict.format === undefined ? [] : [{ path, bytes, resource: verdict.resource, format: verdict.format }];
});

function decodeDirectly({ bytes, resource, format }: Payload): boolean {
  switch (resource) {
    case 'mt-request':
      return decodeMtRequest(bytes, format).ok;
    case 'invoke-service-request':
      return decodeInvokeServiceRequest(bytes).ok;
    case 'mt-status':
      return decodeMtStatus(bytes, format).ok;
    case 'delivery-receipt':
      return decodeDeliveryReceipt(bytes, format).ok;
    case 'mobile-originate':
      return decodeMobileOriginate(bytes, format).ok;
    case 'preview':
      return decodePreview(bytes, format).ok;
    case 'error-record':
      return decodeErrorRecord(bytes, format).ok;
    case 'invoke-error':
      return decodeInvokeErrorBody(bytes).ok;
  }
}

// Both must agree on every payload, or the comparison means nothing.
let agree = 0;
for (const payload of payloads) {
  const viaCli = validatePayload(payload.bytes, payload.path, { resource: payload.resource === 'invoke-service-request' ? payload.resource : undefined }).valid;
  if (viaCli === decodeDirectly(payload)) agree++;
}
if (agree !== payloads.length) throw new Error(`validatePayload and the decoders disagree on ${payloads.length - agree} payloads`);

const bench = new Bench({ time: 2000, warmupTime: 500, name: 'cli-validate' });
bench.add('core decoder, resource and format known (baseline)', () => {
  let valid = 0;
  for (const payload of payloads) if (decodeDirectly(payload)) valid++;
  return valid;
});
bench.add('validatePayload (detect, then decode)', () => {
  let valid = 0;
  for (const payload of payloads) if (validatePayload(payload.bytes, payload.path, payload.resource === 'invoke-service-request' ? { resource: payload.resource } : {}).valid) valid++;
  return valid;
});
await bench.run();
const [baseline, subject] = bench.tasks.map((task) => {
  if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state}`);
  return { name: task.name, ms: task.result.latency.p50 };
}) as [{ name: string; ms: number }, { name: string; ms: number }];
const ratio = subject.ms / baseline.ms;

/** Median wall time of `runs` runs of a command, ms. */
function medianRun(args: readonly string[], runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'] });
    times.push(performance.now() - started);
    if (result.error !== undefined) throw result.error;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const RUNS = 9;
const nodeStart = medianRun(['-e', '0'], RUNS);
const cliStart = medianRun([BINARY, '--version'], RUNS);
const validateRun = medianRun([BINARY, 'validate', '--json', ...paths], RUNS);
const perPayload = (validateRun - cliStart) / paths.length;

const fmt = (ms: number, digits = 1): string => ms.toFixed(digits);
const block = `## CLI: validation and start-up

\`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}; the built package and binary).
${payloads.length} payload fixtures of the core's tests (JSON and XML, every resource, valid and invalid), all in one batch per call;
both sides agree on every verdict. Start-up and whole runs are medians of ${RUNS} runs of the binary as a subprocess.

| measure | baseline | smsv4 | ratio |
|---|---:|---:|---:|
| validate ${payloads.length} payloads in process (median ms per batch) | ${fmt(baseline.ms, 3)} (core decoder called directly) | ${fmt(subject.ms, 3)} (\`validatePayload\`: detection + decoder) | **${ratio.toFixed(2)}×** (target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'not met'}) |
| start-up (median ms) | ${fmt(nodeStart)} (\`node -e 0\`) | ${fmt(cliStart)} (\`smsv4 --version\`) | ${(cliStart / nodeStart).toFixed(2)}× |
| \`smsv4 validate --json\` of ${paths.length} files (median ms) | | ${fmt(validateRun)} | ${fmt(perPayload, 2)} ms per file beyond start-up |
`;

console.log(block);
if (!DRY_RUN) writeReportBlock('cli', block);
if (ratio > TARGET) process.exitCode = 1;
