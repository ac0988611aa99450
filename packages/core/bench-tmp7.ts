import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { ratio } from './harness-tmp.ts';
const xml = readFileSync('./test/fixtures/delivery-receipt/single-delivered.xml', 'utf8');
const xml2 = readFileSync('./test/fixtures/delivery-receipt/nested-layout.xml', 'utf8');
const bare = new XMLParser({ ignoreAttributes: false });
const base = { ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseTagValue: false, parseAttributeValue: false, trimValues: false, processEntities: false, htmlEntities: false, ignoreDeclaration: true, ignorePiTags: true, maxNestedTags: 33 };
const local = (name: string) => { const i = name.indexOf(':'); return i === -1 ? name : name.slice(i + 1); };
const variants: Record<string, object> = {
  ours: base,
  transform: { ...base, removeNSPrefix: false, transformTagName: local, transformAttributeName: (n: string) => (n.startsWith('xmlns') ? 'xmlns' : local(n)) },
  noNS: { ...base, removeNSPrefix: false },
};
for (const doc of [xml, xml2]) for (const [name, opts] of Object.entries(variants)) {
  const p = new XMLParser(opts as any);
  if (name === 'transform') console.log(JSON.stringify(p.parse(doc)));
  console.log(name, ratio(() => bare.parse(doc), () => p.parse(doc), 300, 41));
}
