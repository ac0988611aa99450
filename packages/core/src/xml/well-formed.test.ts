import { describe, expect, it } from 'vitest';
import { checkWellFormed } from './well-formed.js';
import { parseXmlDocument, xmlAttribute, xmlChildren, xmlText } from './xml-document.js';
import { runs } from '../../test/property-runs.js';

describe('checkWellFormed', () => {
  it.each([
    ['<a/>', undefined],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<a x="1" y=\'2\'>t &amp; &#x41;<b/><!-- c --><![CDATA[<x>]]></a>\n', undefined],
    ['<a><b></a>', 'mismatched-tag'],
    ['<ab><cd></ce></ab>', 'mismatched-tag'],
    ['<ab></abc>', 'mismatched-tag'],
    ['<abc></ab>', 'mismatched-tag'],
    ['<a></a b>', 'mismatched-tag'],
    ['<mt:r><mt:s></mt:s ></mt:r>', undefined],
    ['<a></>', 'mismatched-tag'],
    ['</a>', 'mismatched-tag'],
    ['<a bc="1" bd="2" bc="3"/>', 'duplicate-attribute'],
    ['<a bc="1" bd="2" b="3" bcd="4"/>', undefined],
    ['<a><b>', 'unclosed-tag'],
    ['garbage', 'text-outside-root'],
    ['', 'no-root'],
    ['<a/><b/>', 'several-roots'],
    ['<a b="1" b="2"/>', 'duplicate-attribute'],
    ['<a b=1/>', 'bad-attribute'],
    ['<a b="1"c="2"/>', 'bad-attribute'],
    ['<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', 'doctype'],
    ['<a>&x;</a>', 'entity'],
    ['<a b="&#0;"/>', 'entity'],
    ['<a>\u0001</a>', 'bad-character'],
    ['<a>]]></a>', 'bad-character'],
    ['<a><?xml version="1.0"?></a>', 'bad-name'],
    // Names of characters XML cannot carry: a lone surrogate (high or low), U+FFFF; a pair is a character.
    ['<a><?\ud800?></a>', 'bad-name'],
    ['<a><?p\udc00 d?></a>', 'bad-name'],
    ['<\ud800a/>', 'bad-name'],
    ['<a\uffff/>', 'bad-name'],
    ['<a b\udc00="1"/>', 'bad-attribute'],
    ['<a\ud800\udc00 b\ud800\udc00="1"><?p\ud800\udc00?></a\ud800\udc00>', undefined],
    ['<a b="<"/>', 'bad-attribute'],
    ['<a>' + '<b>'.repeat(40) + '</b>'.repeat(40) + '</a>', 'too-deep'],
  ])('%s → %s', (xml, problem) => {
    expect(checkWellFormed(xml)).toBe(problem);
  });
});

describe('parseXmlDocument', () => {
  it('reads prefixed and default namespaces alike, attributes unescaped', () => {
    for (const xml of [
      '<mt:r xmlns:mt="http://sms.openmarket.com/v4/mt"><mt:c v="a &amp; &#x263A;"/><mt:c v="2"/><mt:t>x &lt; y</mt:t></mt:r>',
      '<r xmlns="https://sms.openmarket.com/v4/mt"><c v="a &amp; &#x263A;"/><c v="2"/><t>x &lt; y</t></r>',
    ]) {
      const doc = parseXmlDocument(xml);
      expect(doc.ok).toBe(true);
      if (!doc.ok) return;
      expect(doc.value.rootName).toBe('r');
      const cs = xmlChildren(doc.value.root, 'c');
      expect(cs.map((c) => xmlAttribute(c, 'v'))).toEqual(['a & \u263a', '2']);
      expect(xmlText(xmlChildren(doc.value.root, 't')[0])).toBe('x < y');
    }
  });
  it('refuses __proto__ elements without polluting', () => {
    const doc = parseXmlDocument('<a><__proto__ polluted="1"/></a>');
    expect(doc.ok).toBe(false);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('CDATA', () => {
  it('reads CDATA content literally, in order with the surrounding text, and leaves comments alone', () => {
    const doc = parseXmlDocument('<a><!-- <![CDATA[ --><t>x &amp; <![CDATA[a &amp; <b> & c]]> y</t></a>');
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect(xmlText(xmlChildren(doc.value.root, 't')[0])).toBe('x & a &amp; <b> & c y');
  });
});

describe('buildXmlDocument', () => {
  it('writes values any XML parser reads back exactly: markup, quotes, tab, LF and CR', async () => {
    const { buildXmlDocument } = await import('./xml-document.js');
    const tricky = 'a & b < c > d " e \' f\tg\nh\r\ni';
    const xml = buildXmlDocument('r', { '@v': tricky, t: { '#text': tricky } });
    expect(xml).toMatch(/ v="a &amp; b &lt; c &gt; d &quot; e (?:'|&apos;) f&#9;g&#10;h&#13;&#10;i"/);
    expect(xml).toContain('<t>a &amp; b &lt; c &gt; d " e \' f\tg\nh&#13;\ni</t>');
    const doc = parseXmlDocument(xml);
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect(xmlAttribute(doc.value.root, 'v')).toBe(tricky);
    expect(xmlText(xmlChildren(doc.value.root, 't')[0])).toBe(tricky);
  });

  it('refuses what XML 1.0 cannot carry, naming the encoder and the member', async () => {
    const { buildXmlDocument } = await import('./xml-document.js');
    expect(() => buildXmlDocument('mtStatus', { '@note1': 'bell\u0007' })).toThrow(
      'encodeMtStatus: mtStatus.note1 holds U+0007 at index 4, which an XML 1.0 document cannot carry; encode it as JSON',
    );
  });
});

describe('hostile CDATA and markup openings', () => {
  // How much work these take is counted, not timed, in well-formed-linear.test.ts.
  it('answers CDATA openings inside processing instructions and comments', () => {
    for (const xml of [
      '<?<![CDATA[]>ml version="1.0"?><deliveryReceipt type="final"/>',
      '<a><?pi <![CDATA[ ?><b/></a>',
      '<a><!-- <![CDATA[ --><b/></a>',
      '<a><![CDATA[never closed</a>',
    ]) {
      const doc = parseXmlDocument(xml);
      expect(typeof doc.ok).toBe('boolean');
    }
  });

  it('never throws or hangs on damaged documents built from markup pieces', async () => {
    const fc = (await import('fast-check')).default;
    const piece = fc.constantFrom('<a>', '</a>', '<b x="1"/>', '<![CDATA[', ']]>', '<!--', '-->', '<?', '?>', '<?xml version="1.0"?>', '&amp;', '&', 'text', ' ', '"', '<', '>');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const doc = parseXmlDocument(pieces.join(''));
        expect(typeof doc.ok).toBe('boolean');
      }),
      { numRuns: runs(2000) },
    );
  });
});
