import { decodeDeliveryReceipt } from '@smsv4/core';
import { XMLParser } from 'fast-xml-parser';
import type { BenchSuite } from './harness.js';

const BATCH = 200;

const xml = `<?xml version="1.0" encoding="UTF-8"?>
<deliveryReceipt type="final" xmlns="http://sms.openmarket.com/v4/mt">
  <mtStatus ticketId="44101-0922I-13413-21GDL" deliveryDate="2026-11-21T08:34:24.123Z" segmentNumber="1" totalSegments="3" code="4" description="Message delivered" note1="order 5512" note2="spring campaign" mobileOperatorId="383"/>
  <destination address="14255550100" mobileOperatorId="383" alpha2Code="US"/>
  <source ton="3" address="12345"/>
</deliveryReceipt>`;

const bare = new XMLParser({ ignoreAttributes: false });

/** XML delivery receipt: decode + validation vs a bare fast-xml-parser parse of the same text. */
export const xmlReceiptDecode: BenchSuite = {
  id: 'xml-receipt-decode',
  title: 'XML delivery receipt: decode + validation vs bare fast-xml-parser',
  items: BATCH,
  itemName: 'receipts',
  baseline: {
    name: 'XMLParser.parse',
    fn: () => {
      let sink = 0;
      for (let i = 0; i < BATCH; i++) sink += bare.parse(xml) ? 1 : 0;
      return sink;
    },
  },
  subjects: [
    {
      name: 'decodeDeliveryReceipt',
      fn: () => {
        let sink = 0;
        for (let i = 0; i < BATCH; i++) sink += decodeDeliveryReceipt(xml, 'xml').ok ? 1 : 0;
        if (sink !== BATCH) throw new Error('the receipt must be valid');
        return sink;
      },
    },
  ],
  target: { kind: 'max-time-ratio', value: 1.3, subject: 'decodeDeliveryReceipt' },
  notes: () => [`Body: a ${xml.length}-byte receipt for part 1 of 3 with notes and operator.`],
};
