import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { ratio } from './harness-tmp.ts';
import { readBody } from './src/codec/wire-format.ts';
import { checkWellFormed } from './src/xml/well-formed.ts';
import { decodeDeliveryReceipt, DeliveryReceiptSchema } from './src/delivery-receipt/delivery-receipt.ts';
import { readWire } from './src/resource-codec/read-wire.ts';
import { planOf } from './src/resource-codec/wire-plan.ts';
import { TypeCompiler } from '@sinclair/typebox/compiler';
const xml = readFileSync('./test/fixtures/delivery-receipt/single-delivered.xml', 'utf8');
const plan = planOf(DeliveryReceiptSchema);
const check = TypeCompiler.Compile(DeliveryReceiptSchema);
const bare = new XMLParser({ ignoreAttributes: false });
const ours = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseTagValue: false, parseAttributeValue: false, trimValues: false, processEntities: false, htmlEntities: false, ignoreDeclaration: true, ignorePiTags: true, maxNestedTags: 33 });
const b = () => bare.parse(xml);
const s1 = () => { const r = readBody(xml, 'xml') as any; return r.value.xml.root; };
const s2 = () => readWire(plan, s1(), true);
const s3 = () => check.Check(s2());
for (let k = 0; k < 2; k++) {
console.log('parser only', ratio(b, () => ours.parse(xml), 300, 41));
console.log('wf only', ratio(b, () => checkWellFormed(xml), 300, 41));
console.log('readBody', ratio(b, s1, 300, 41));
console.log('+read', ratio(b, s2, 300, 41));
console.log('+check', ratio(b, s3, 300, 41));
console.log('decode', ratio(b, () => decodeDeliveryReceipt(xml, 'xml'), 300, 41));
}
