import { readFileSync } from 'node:fs';
import { ratio } from './harness-tmp.ts';
import { decodeDeliveryReceipt, DeliveryReceiptSchema } from './src/delivery-receipt/delivery-receipt.ts';
import { decodeMtStatus, MtStatusSchema } from './src/mt-status/mt-status.ts';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { canonicalJsonSchemaOf } from './src/resource-codec/wire-plan.ts';
import { readBody } from './src/codec/wire-format.ts';
import type { TSchema } from '@sinclair/typebox';
function strict(s: TSchema): TSchema {
  if (s.type === 'object') { const p: Record<string, TSchema> = {}; for (const k of Object.keys(s.properties)) p[k] = strict(s.properties[k]); return { ...s, properties: p, additionalProperties: false }; }
  if (s.type === 'array') return { ...s, items: strict(s.items) };
  return s;
}
// exact-keys verifier: counts present known keys vs Object.keys length
function exact(s: TSchema): (n: any) => boolean {
  const keys = Object.keys(s.properties);
  const subs: [string, (n: any) => boolean, boolean][] = [];
  for (const k of keys) { const p = s.properties[k]; if (p.type === 'object') subs.push([k, exact(p), false]); if (p.type === 'array') subs.push([k, exact(p.items), true]); }
  let src = 'let k = 0;\n' + keys.map(k => `if (n[${JSON.stringify(k)}] !== undefined) k++;`).join('\n') + '\nif (Object.keys(n).length !== k) return false;\n';
  subs.forEach(([k, _f, arr], i) => { src += arr ? `{ const a = n[${JSON.stringify(k)}]; if (a !== undefined) for (let i = 0; i < a.length; i++) if (!s${i}(a[i])) return false; }\n` : `if (n[${JSON.stringify(k)}] !== undefined && !s${i}(n[${JSON.stringify(k)}])) return false;\n`; });
  src += 'return true;';
  return new Function(...subs.map((_, i) => 's' + i), `return function(n) {${src}}`)(...subs.map(x => x[1]));
}
for (const [f, schema, root] of [['delivery-receipt/single-delivered.json', DeliveryReceiptSchema, 'deliveryReceipt'], ['mt-status/multipart-partial-failure.json', MtStatusSchema, 'mtStatus']] as const) {
  const json = readFileSync('./test/fixtures/' + f, 'utf8');
  const plain = TypeCompiler.Compile(canonicalJsonSchemaOf(schema));
  const st = TypeCompiler.Compile(strict(schema));
  const ex = exact(schema);
  const get = () => (readBody(json, 'json') as any).value.json[root];
  console.log(plain.Check(get()), st.Check(get()), ex(get()));
  const j = () => JSON.parse(json);
  console.log(f, 'readBody', ratio(j, get, 15000, 31));
  console.log(f, '+plain', ratio(j, () => plain.Check(get()), 15000, 31));
  console.log(f, '+plain+exact', ratio(j, () => { const n = get(); return plain.Check(n) && ex(n); }, 15000, 31));
  console.log(f, '+strict', ratio(j, () => st.Check(get()), 15000, 31));
}
