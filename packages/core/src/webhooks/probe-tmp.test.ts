import { it } from 'vitest';
import { decodeMobileOriginate } from '../mobile-originate/mobile-originate.js';
import { parseXmlDocument } from '../xml/xml-document.js';
import { checkWellFormed } from '../xml/well-formed.js';
import { loadFixture } from '../../test/fixtures.js';
it('x', () => {
  for (const [f, at] of [['mobile-originate/udh8-part1.xml', 1593598807], ['mobile-originate/text-attribute.xml', 1447407076]] as const) {
    const doc = loadFixture(f);
    const p = at % (doc.length + 1);
    const xml = doc.slice(0, p) + doc.slice(p + 3);
    console.log(JSON.stringify(doc.slice(p - 20, p + 23)), '→', JSON.stringify(xml.slice(p - 20, p + 20)));
    console.log(checkWellFormed(xml), JSON.stringify(parseXmlDocument(xml)).slice(0, 300));
    console.log(JSON.stringify(decodeMobileOriginate(xml, 'xml')));
  }
});
