import { readFileSync } from 'node:fs';
import { ratio } from './harness-tmp.ts';
import { readBody } from './src/codec/wire-format.ts';
import { DeliveryReceiptSchema } from './src/delivery-receipt/delivery-receipt.ts';
import { MtStatusSchema } from './src/mt-status/mt-status.ts';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
function strict(s: TSchema): TSchema {
  if (s.type === 'object') { const p: Record<string, TSchema> = {}; for (const k of Object.keys(s.properties)) p[k] = strict(s.properties[k]); return { ...s, properties: p, additionalProperties: false }; }
  if (s.type === 'array') return { ...s, items: strict(s.items) };
  return s;
}
for (const [f, schema, root] of [['delivery-receipt/single-delivered.json', DeliveryReceiptSchema, 'deliveryReceipt'], ['mt-status/multipart-partial-failure.json', MtStatusSchema, 'mtStatus']] as const) {
  const json = readFileSync('./test/fixtures/' + f, 'utf8');
  const c = TypeCompiler.Compile(strict(schema));
  const c0 = TypeCompiler.Compile(schema);
  const j = () => JSON.parse(json);
  console.log(c.Check(JSON.parse(json)[root]));
  console.log(f, 'readBody', ratio(j, () => readBody(json, 'json'), 3000, 41));
  console.log(f, 'readBody+strictcheck', ratio(j, () => c.Check((readBody(json, 'json') as any).value.json[root]), 3000, 41));
  console.log(f, 'readBody+check', ratio(j, () => c0.Check((readBody(json, 'json') as any).value.json[root]), 3000, 41));
}
