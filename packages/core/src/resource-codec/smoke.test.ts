import { test } from 'vitest';
import { listFixtures, loadFixture } from '../../test/fixtures.js';
import { decodeMtStatus, encodeMtStatus } from '../mt-status/mt-status.js';
import { decodeDeliveryReceipt, encodeDeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { decodeMobileOriginate } from '../mobile-originate/mobile-originate.js';
import { decodePreview } from '../preview/preview.js';
import { decodeErrorRecord } from '../error-record/error-record.js';
import { decodeInvokeErrorBody } from '../error-record/invoke-error-body.js';
const decoders: Record<string, (b: string, f: 'json' | 'xml') => unknown> = {
  'mt-status': decodeMtStatus, 'delivery-receipt': decodeDeliveryReceipt, 'mobile-originate': decodeMobileOriginate, preview: decodePreview, 'error-record': decodeErrorRecord,
};
test('smoke', () => {
  for (const area of Object.keys(decoders)) for (const f of listFixtures(area)) {
    const fmt = f.endsWith('.json') ? 'json' : 'xml';
    const r = f.includes('invoke') ? decodeInvokeErrorBody(loadFixture(f)) : decoders[area]!(loadFixture(f), fmt);
    console.log(f, JSON.stringify(r));
  }
  const s = decodeMtStatus(loadFixture('mt-status/multipart-partial-failure.xml'), 'xml');
  if (s.ok) { console.log(encodeMtStatus(s.value, 'xml')); console.log(encodeMtStatus(s.value, 'json')); }
  const d = decodeDeliveryReceipt(loadFixture('delivery-receipt/nested-layout.xml'), 'xml');
  if (d.ok) { console.log(encodeDeliveryReceipt(d.value, 'xml', { namespace: null })); }
});
