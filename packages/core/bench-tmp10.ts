import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { ratio } from './harness-tmp.ts';
import { decodeDeliveryReceipt } from './src/delivery-receipt/delivery-receipt.ts';
import { decodeMtStatus } from './src/mt-status/mt-status.ts';
import { decodeMobileOriginate } from './src/mobile-originate/mobile-originate.ts';
import { decodePreview } from './src/preview/preview.ts';
const bare = new XMLParser({ ignoreAttributes: false });
const cases: [string, (b: string, f: 'json' | 'xml') => { ok: boolean }][] = [
  ['delivery-receipt/single-delivered', decodeDeliveryReceipt], ['delivery-receipt/multipart-part2-expired', decodeDeliveryReceipt], ['delivery-receipt/nested-layout', decodeDeliveryReceipt],
  ['mt-status/multipart-partial-failure', decodeMtStatus], ['mobile-originate/text-attribute', decodeMobileOriginate], ['preview/us-wireless', decodePreview]];
for (const [f, dec] of cases) {
  const xml = readFileSync('./test/fixtures/' + f + '.xml', 'utf8');
  if (!dec(xml, 'xml').ok) throw new Error(f);
  console.log(f + '.xml', ratio(() => bare.parse(xml), () => dec(xml, 'xml'), 1000, 41));
  let json: string;
  try { json = readFileSync('./test/fixtures/' + f + '.json', 'utf8'); } catch { json = ''; }
  if (json === '') { json = JSON.stringify(JSON.parse(readFileSync('./test/fixtures/' + f.replace('text-attribute', 'text') + '.json', 'utf8'))); }
  if (!dec(json, 'json').ok) throw new Error(f);
  console.log(f + '.json', ratio(() => JSON.parse(json), () => dec(json, 'json'), 15000, 41));
}
