import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { checkWellFormed } from './well-formed.js';
import { runs } from '../../test/property-runs.js';

/** `true` when saxes, a conforming XML 1.0 parser, reads the document without an error. */
function conforming(xml: string): boolean {
  const parser = new SaxesParser({ xmlns: false });
  let failed = false;
  parser.on('error', () => {
    failed = true;
  });
  try {
    parser.write(xml).close();
  } catch {
    failed = true;
  }
  return !failed;
}

const piece = fc.constantFrom(
  '<a>', '</a>', '<b x="1"/>', '<b x=\'&lt;\'/>', '<c:d xmlns:c="u">', '</c:d>', '<![CDATA[x]]>', '<![CDATA[', ']]>',
  '<!-- c -->', '<!--', '-->', '<?pi data?>', '<?', '?>', '<?xml version="1.0"?>', '&amp;', '&#65;', '&#x0;', '&nope;', '&',
  'text', ' ', '\n', '"', "'", '<', '>', '=', '<!DOCTYPE a>', '<a b="1" b="2">', '</ a>', '<1/>', '<a\u0001/>', '\u0001',
  '<a b="x"c="y">', '<a b=x>', '<é ü="1">', '</é>', '<a/ >', '<a / >', '</a >', '<?xml version="1.0" encoding="UTF-8"?>',
  '<?xml version="2.0"?>', '<?XML x?>', '<!---->', '<!-- - -->', '<!--->', '\uFFFE', '\uD800', '&#xD800;', '&#1114111;', ']]',
);

describe('checkWellFormed against a conforming parser', () => {
  it('accepts nothing that a conforming XML parser refuses', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const xml = pieces.join('');
        if (checkWellFormed(xml) === undefined) expect(conforming(xml), xml).toBe(true);
      }),
      { numRuns: runs(20_000) },
    );
  });

  it('accepts the documents of the API that a conforming parser accepts', () => {
    for (const xml of [
      '<?xml version="1.0" encoding="UTF-8"?>\n<mtStatus xmlns="http://sms.openmarket.com/v4/mt" ticketId="A-B" code="4"><destination address="1"/></mtStatus>\n',
      '<mt:mobileTerminate xmlns:mt="http://sms.openmarket.com/v4/mt"><mt:message type="text"><mt:content>a &lt; b &#x263A;</mt:content></mt:message></mt:mobileTerminate>',
      '<!-- leading comment --><a><![CDATA[<not markup>]]><?pi ok?></a>',
    ]) {
      expect(conforming(xml)).toBe(true);
      expect(checkWellFormed(xml)).toBeUndefined();
    }
  });
});
