import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  decodeCallback,
  decodeDeliveryReceipt,
  decodeErrorRecord,
  decodeMobileOriginate,
  decodeMtStatus,
  decodePreview,
  type BodyInput,
  type WireFormat,
} from '@smsv4/core';
import { XMLParser } from 'fast-xml-parser';
import type { BenchSuite, BenchTask } from './harness.js';

const BATCH = 200;
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'packages', 'core', 'test', 'fixtures');
const fixture = (path: string): string => readFileSync(join(FIXTURES, path), 'utf8');

/** The baseline: a bare fast-xml-parser parse (attributes read, every other option at its default). */
const bare = new XMLParser({ ignoreAttributes: false });

type Decoder = (body: BodyInput, format: WireFormat) => { readonly ok: boolean };

function decoderTask(name: string, decode: Decoder, xml: string): BenchTask {
  if (!decode(xml, 'xml').ok) throw new Error(`${name}: the benchmark document must be valid`);
  return {
    name,
    fn: () => {
      let sink = 0;
      for (let i = 0; i < BATCH; i++) sink += decode(xml, 'xml').ok ? 1 : 0;
      if (sink !== BATCH) throw new Error(`${name}: the document must stay valid`);
      return sink;
    },
  };
}

/** One XML decoder (and any other subject on the same document) against a bare fast-xml-parser parse of it. */
function xmlDecodeSuite(id: string, resource: string, itemName: string, xml: string, described: string, subjects: ReadonlyArray<readonly [string, Decoder]>): BenchSuite {
  const tasks = subjects.map(([name, decode]) => decoderTask(name, decode, xml));
  return {
    id,
    title: `XML ${resource}: decode + validation vs bare fast-xml-parser`,
    path: `XML ${resource} decode + validation (${(subjects[0] as readonly [string, Decoder])[0]})`,
    items: BATCH,
    itemName,
    baseline: {
      name: 'XMLParser.parse',
      fn: () => {
        let sink = 0;
        for (let i = 0; i < BATCH; i++) sink += bare.parse(xml) ? 1 : 0;
        return sink;
      },
    },
    subjects: tasks,
    target: { kind: 'max-time-ratio', value: 0.8, subject: (tasks[0] as BenchTask).name },
    notes: () => [`Body: ${described}, ${xml.length} characters.`],
  };
}

const receipt = `<?xml version="1.0" encoding="UTF-8"?>
<deliveryReceipt type="final" xmlns="http://sms.openmarket.com/v4/mt">
  <mtStatus ticketId="44101-0922I-13413-21GDL" deliveryDate="2026-11-21T08:34:24.123Z" segmentNumber="1" totalSegments="3" code="4" description="Message delivered" note1="order 5512" note2="spring campaign" mobileOperatorId="383"/>
  <destination address="14255550100" mobileOperatorId="383" alpha2Code="US"/>
  <source ton="3" address="12345"/>
</deliveryReceipt>`;

const callback: Decoder = (body, format) => decodeCallback(body, format);

/** Every XML decoder of the API, each against a bare parse of its own document. */
export const xmlDecodeSuites: readonly BenchSuite[] = [
  xmlDecodeSuite('xml-status-decode', 'status', 'statuses', fixture('mt-status/multipart-partial-failure.xml'), 'the status of a 3-part message with a segment list (packages/core/test/fixtures/mt-status/multipart-partial-failure.xml)', [
    ['decodeMtStatus', decodeMtStatus],
  ]),
  xmlDecodeSuite('xml-receipt-decode', 'delivery receipt', 'receipts', receipt, 'a receipt for part 1 of 3 with notes and operator', [
    ['decodeDeliveryReceipt', decodeDeliveryReceipt],
    ['decodeCallback', callback],
  ]),
  xmlDecodeSuite('xml-inbound-decode', 'inbound message', 'messages', fixture('mobile-originate/content-element.xml'), 'a prefixed inbound message with a content element (packages/core/test/fixtures/mobile-originate/content-element.xml)', [
    ['decodeMobileOriginate', decodeMobileOriginate],
    ['decodeCallback', callback],
  ]),
  xmlDecodeSuite('xml-lookup-decode', 'lookup result', 'results', fixture('preview/us-wireless.xml'), 'an operator lookup result (packages/core/test/fixtures/preview/us-wireless.xml)', [
    ['decodePreview', decodePreview],
  ]),
  xmlDecodeSuite('xml-error-decode', 'error record', 'errors', fixture('error-record/711-ticket-not-found.xml'), 'an error record (packages/core/test/fixtures/error-record/711-ticket-not-found.xml)', [
    ['decodeErrorRecord', decodeErrorRecord],
  ]),
];
