import { decodeMtRequest } from '@smsv4/core';
import type { BenchSuite } from './harness.js';

const BATCH = 500;

/** A typical JSON send: text, source, delivery receipt with URL, notes. */
const body = JSON.stringify({
  mobileTerminate: {
    interaction: 'one-way',
    promotional: false,
    options: { note1: 'order 5512', note2: 'spring campaign', flash: false },
    destination: { address: '14255550100' },
    source: { ton: 3, address: '12345' },
    message: { type: 'text', content: 'Your order 5512 is ready for pickup at the Main St store. Reply STOP to opt out.', mlc: 'segment', validityPeriod: 86400 },
    delivery: { receiptRequested: 'final', url: 'https://hooks.example.com/sms/receipts' },
  },
});

/** JSON MT request: decode + full validation (duplicate-member detection included) vs `JSON.parse`. */
export const jsonMtDecode: BenchSuite = {
  id: 'json-mt-decode',
  title: 'JSON MT request: decode + full validation vs JSON.parse',
  path: 'JSON MT decode + full validation (duplicate members included)',
  items: BATCH,
  itemName: 'requests',
  baseline: {
    name: 'JSON.parse',
    fn: () => {
      let sink = 0;
      for (let i = 0; i < BATCH; i++) sink += (JSON.parse(body) as object) ? 1 : 0;
      return sink;
    },
  },
  subjects: [
    {
      name: 'decodeMtRequest',
      fn: () => {
        let sink = 0;
        for (let i = 0; i < BATCH; i++) sink += decodeMtRequest(body, 'json').ok ? 1 : 0;
        if (sink !== BATCH) throw new Error('the typical request must be valid');
        return sink;
      },
    },
  ],
  target: { kind: 'max-time-ratio', value: 1.5, subject: 'decodeMtRequest' },
  notes: () => [`Body: a ${body.length}-byte text send with source, options, validity period and a receipt URL.`],
};
