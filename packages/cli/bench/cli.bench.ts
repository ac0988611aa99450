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
import { runSuite } from '../../../tooling/bench/src/harness.js';
import { writeReportBlock, writeSummaryRow } from '../../../tooling/bench/src/report-file.js';
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

const validation = await runSuite({
  id: 'cli-validate',
  title: 'validatePayload',
  path: 'CLI validation in process',
  items: payloads.length,
  itemName: 'payloads',
  baseline: {
    name: 'core decoder, resource and format known',
    fn: () => {
      let valid = 0;
      for (const payload of payloads) if (decodeDirectly(payload)) valid++;
      return valid;
    },
  },
  subjects: [
    {
      name: 'validatePayload (detect, then decode)',
      fn: () => {
        let valid = 0;
        for (const payload of payloads) if (validatePayload(payload.bytes, payload.path, payload.resource === 'invoke-service-request' ? { resource: payload.resource } : {}).valid) valid++;
        return valid;
      },
    },
  ],
  target: { kind: 'max-time-ratio', value: TARGET, subject: 'validatePayload (detect, then decode)' },
});
const baseline = { ms: validation.baseline.msPerCall };
const subject = { ms: (validation.subjects[0] as (typeof validation.subjects)[number]).msPerCall };
const ratio = validation.ratio;

/** Wall time of one run of a command, ms. */
function timeRun(args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'] });
  const elapsed = performance.now() - started;
  if (result.error !== undefined) throw result.error;
  return elapsed;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/**
 * Runs `node -e 0` (the baseline) and each command in turn, `rounds` times, so that every run meets
 * the same machine load; each round gives one ratio per command, the figure is their median.
 */
function startUps(commands: ReadonlyArray<readonly string[]>, rounds: number): { node: number; times: number[]; ratios: number[][] } {
  for (const args of [['-e', '0'], ...commands]) timeRun(args);
  const node: number[] = [];
  const times: number[][] = commands.map(() => []);
  const ratios: number[][] = commands.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const base = timeRun(['-e', '0']);
    node.push(base);
    commands.forEach((args, i) => {
      const t = timeRun(args);
      (times[i] as number[]).push(t);
      (ratios[i] as number[]).push(t / base);
    });
  }
  return { node: median(node), times: times.map(median), ratios };
}

const RUNS = 15;
const START_TARGET = 2;
const starts = startUps(
  [
    [BINARY, '--version'],
    [BINARY, '--help'],
    [BINARY, 'segments', 'Your code is 482913'],
    // An API command: its module, the client and the sandbox's defaults loaded.
    [BINARY, 'lookup', '--help'],
  ],
  RUNS,
);
const nodeStart = starts.node;
const [cliStart = 0, helpStart = 0, segmentsStart = 0, lookupStart = 0] = starts.times;
const [startRatios = [], helpRatios = [], segmentsRatios = [], lookupRatios = []] = starts.ratios;
const startRatio = median(startRatios);
const validateRun = median(Array.from({ length: 5 }, () => timeRun([BINARY, 'validate', '--json', ...paths])));
const perPayload = (validateRun - cliStart) / paths.length;
const range = (values: readonly number[]): string => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}×`;

const fmt = (ms: number, digits = 1): string => ms.toFixed(digits);
const block = `## CLI: validation and start-up

\`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}; the built package and binary).
${payloads.length} payload fixtures of the core's tests (JSON and XML, every resource, valid and invalid), all in one batch per call;
both sides agree on every verdict; the two are called in turn, ${validation.rounds} rounds, the ratio is the median of the rounds.
Start-up: \`node -e 0\` (the baseline: Node's own start-up) and each command run in turn as subprocesses, ${RUNS} rounds; the
ratio is the median of the rounds' ratios. Each command loads only the modules it uses (its own is loaded when it runs).

| measure | baseline | smsv4 | ratio (median of rounds) | range of rounds | target |
|---|---:|---:|---:|---:|---|
| validate ${payloads.length} payloads in process (median ms per batch) | ${fmt(baseline.ms, 3)} (core decoder called directly) | ${fmt(subject.ms, 3)} (\`validatePayload\`: detection + decoder) | **${ratio.toFixed(2)}×** | ${validation.ratioBest.toFixed(2)}–${validation.ratioWorst.toFixed(2)}× | ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : '**not met**'} |
| start-up, \`smsv4 --version\` (median ms) | ${fmt(nodeStart)} (\`node -e 0\`) | ${fmt(cliStart)} | **${startRatio.toFixed(2)}×** | ${range(startRatios)} | ≤ ${START_TARGET}×: ${startRatio <= START_TARGET ? 'met' : '**not met**'} |
| \`smsv4 --help\` (median ms) | ${fmt(nodeStart)} (\`node -e 0\`) | ${fmt(helpStart)} | ${median(helpRatios).toFixed(2)}× | ${range(helpRatios)} | |
| \`smsv4 segments <text>\` (median ms) | ${fmt(nodeStart)} (\`node -e 0\`) | ${fmt(segmentsStart)} | ${median(segmentsRatios).toFixed(2)}× | ${range(segmentsRatios)} | |
| \`smsv4 lookup --help\` (median ms) | ${fmt(nodeStart)} (\`node -e 0\`) | ${fmt(lookupStart)} | ${median(lookupRatios).toFixed(2)}× | ${range(lookupRatios)} | |
| \`smsv4 validate --json\` of ${paths.length} files (median ms of 5) | | ${fmt(validateRun)} | | | ${fmt(perPayload, 2)} ms per file beyond start-up |
`;

console.log(block);
if (!DRY_RUN) {
  writeReportBlock('cli', block);
  writeSummaryRow({ path: 'CLI start-up (`smsv4 --version`)', baseline: '`node -e 0`', ratio: `${startRatio.toFixed(2)}× time`, target: `≤ ${START_TARGET}× time`, met: startRatio <= START_TARGET, command: COMMAND });
  writeSummaryRow({ path: 'CLI validation in process (`validatePayload`)', baseline: 'core decoder called directly', ratio: `${ratio.toFixed(2)}× time`, target: `≤ ${TARGET}× time`, met: ratio <= TARGET, command: COMMAND });
}
if (ratio > TARGET || startRatio > START_TARGET) process.exitCode = 1;
