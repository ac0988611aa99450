import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { decodeDeliveryReceipt } from '/work/main/packages/core/src/delivery-receipt/delivery-receipt.ts';
import { decodeMtStatus } from '/work/main/packages/core/src/mt-status/mt-status.ts';
import { decodeMobileOriginate } from '/work/main/packages/core/src/mobile-originate/mobile-originate.ts';

const F = '/work/main/packages/core/test/fixtures/';
const bare = new XMLParser({ ignoreAttributes: false });
function time(fn: () => unknown, n: number): number {
  for (let i = 0; i < n / 5; i++) fn();
  let best = Infinity;
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) fn();
    best = Math.min(best, (performance.now() - t) / n);
  }
  return best * 1e6; // ns
}
function compare(name: string, ours: () => unknown, base: () => unknown, n = 50000) {
  const a = time(base, n), b = time(ours, n), a2 = time(base, n), b2 = time(ours, n);
  const base_ = Math.min(a, a2), ours_ = Math.min(b, b2);
  console.log(`${name}: baseline ${base_.toFixed(0)} ns, ours ${ours_.toFixed(0)} ns, ratio ${(ours_ / base_).toFixed(2)}`);
}
for (const f of ['delivery-receipt/single-delivered', 'delivery-receipt/multipart-part2-expired', 'delivery-receipt/nested-layout', 'mt-status/multipart-partial-failure', 'mobile-originate/text-attribute']) {
  const dec = f.startsWith('delivery') ? decodeDeliveryReceipt : f.startsWith('mt') ? decodeMtStatus : decodeMobileOriginate;
  const xml = readFileSync(F + f + '.xml', 'utf8');
  if (!(dec as any)(xml, 'xml').ok) throw new Error(f);
  compare(`${f}.xml`, () => (dec as any)(xml, 'xml'), () => bare.parse(xml));
  try {
    const json = readFileSync(F + f + '.json', 'utf8');
    if (!(dec as any)(json, 'json').ok) throw new Error(f);
    compare(`${f}.json`, () => (dec as any)(json, 'json'), () => JSON.parse(json), 200000);
    const bytes = new TextEncoder().encode(json);
    const td = new TextDecoder();
    compare(`${f}.json (bytes)`, () => (dec as any)(bytes, 'json'), () => JSON.parse(td.decode(bytes)), 200000);
  } catch (e) { if ((e as any).code !== 'ENOENT') throw e; }
}
