import type { BenchSuite } from './harness.js';
import { fetchBodyRead } from './fetch-body-read.bench.js';
import { hexSuites } from './hex.bench.js';
import { jsonMtDecode } from './json-mt-decode.bench.js';
import { nodeBodyRead } from './node-body-read.bench.js';
import { receiverDecodeFloor } from './receiver-decode-floor.bench.js';
import { receiverTelemetry } from './receiver-telemetry.bench.js';
import { segments, segmentsVsCalculator } from './segments.bench.js';
import { timestampParse } from './timestamp-parse.bench.js';
import { xmlCallbackVsJson } from './xml-callback-vs-json.bench.js';
import { xmlDecodeSuites } from './xml-decode.bench.js';

/** Every suite, in report order. */
export const suites: readonly BenchSuite[] = [jsonMtDecode, ...xmlDecodeSuites, xmlCallbackVsJson, timestampParse, segments, segmentsVsCalculator, ...hexSuites, nodeBodyRead, fetchBodyRead, receiverTelemetry, receiverDecodeFloor];
