import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listFixtures, loadFixture } from '../../test/fixtures.js';
import { readTwoPasses } from '../../test/xml-two-passes.js';
import { checkWellFormed, MAX_ATTRIBUTES, readWellFormed } from './well-formed.js';
import { parseWithFastXmlParser, parseXmlDocument } from './xml-document.js';
import { isReservedName } from './xml-reader.js';
import type { XmlDocument } from './xml-tree.js';
import { runs } from '../../test/property-runs.js';

/** The tree the one pass builds for a well-formed document (`undefined` when it leaves the document to fast-xml-parser). */
function readXmlTree(xml: string): XmlDocument | undefined {
  const read = readWellFormed(xml);
  if (read.problem !== undefined) throw new Error(`not well-formed: ${read.problem}`);
  return read.tree;
}

/** The tree fast-xml-parser alone builds for a well-formed document (the reference). */
function reference(xml: string): unknown {
  const parsed = parseWithFastXmlParser(xml);
  return parsed.ok ? parsed.value : parsed.error;
}

/** The document without its processing instructions (the XML declaration aside); for documents without CDATA or comments holding `<?`. */
function withoutProcessingInstructions(xml: string): string {
  return xml.replace(/<\?(?!xml[ \t\r\n])[\s\S]*?\?>/g, '');
}

// --- a generator of well-formed documents of every shape the reader meets ---

const prefix = fc.constantFrom('', '', '', 'mt:', 'ns2:');
const localName = fc.constantFrom('a', 'b', 'content', 'mtStatus', 'x-y.z', 'é', 'isPrototypeOf_', '_');
const attributeName = fc.constantFrom('k', 'v', 'code', 'xmlns', 'xmlns:mt', 'mt:k', '__proto__', 'constructor', 'toString', 'é');
// No piece ends in "]]", so no "]]>" (refused in character data) can appear where pieces join.
const textPiece = fc.constantFrom('a', ' ', '  ', '\n', '\t', '\r\n', '\r', 'é€', '👋', '&amp;', '&lt;', '&gt;', '&quot;', '&#13;', '&#x1F44B;', '>', 'a]', ']]a', '"', "'", '1', 'true');
const text = fc.array(textPiece, { maxLength: 6 }).map((pieces) => pieces.join(''));
const attributeValue = fc
  .array(fc.oneof(textPiece.filter((p) => p !== '"' && p !== "'"), fc.constantFrom("'", '"')), { maxLength: 5 })
  .map((pieces) => pieces.join(''));
const cdataText = fc.array(fc.constantFrom('x', '<b>', '&', '&amp;', ']]x', 'x]', '>', ' ', '\r\n', '<!--'), { maxLength: 5 }).map((p) => p.join(''));

const misc = fc.oneof(
  fc.constantFrom('<!-- c -->', '<!---->', '<!-- <![CDATA[ x -->', '<?pi?>', '<?pi data > x?>', '<?target <![CDATA[ ?>'),
  cdataText.map((t) => `<![CDATA[${t}]]>`),
);

function quote(value: string): string {
  if (!value.includes('"')) return `"${value}"`;
  return `'${value.replace(/'/g, '&apos;')}'`;
}

const attributes = fc
  .uniqueArray(fc.tuple(attributeName, attributeValue, fc.constantFrom(' ', '\n  ', ' \r\n', '\t')), { selector: ([name]) => name, maxLength: 4 })
  .map((list) => list.map(([name, value, space]) => `${space}${name}${space === ' ' ? '=' : ' = '}${quote(value)}`).join(''));

/** An element whose descendants go at most `depth` levels deeper. */
function elementOf(depth: number): fc.Arbitrary<string> {
  const node = depth === 0 ? fc.oneof(text, misc) : fc.oneof(elementOf(depth - 1), text, misc, elementOf(depth - 1));
  return fc
    .tuple(prefix, localName, attributes, fc.array(node, { maxLength: 5 - depth }), fc.boolean(), fc.constantFrom('', ' ', '\n'))
    .map(([p, name, attrs, children, selfClose, closeSpace]) =>
      children.length === 0 && selfClose ? `<${p}${name}${attrs}${closeSpace}/>` : `<${p}${name}${attrs}>${children.join('')}</${p}${name}${closeSpace}>`,
    );
}
const element = elementOf(3);

const document = fc
  .tuple(
    fc.constantFrom('', '<?xml version="1.0" encoding="UTF-8"?>', "<?xml version='1.0'?>\n", '<?xml version="1.0" standalone="yes" ?>\r\n'),
    fc.array(fc.constantFrom(' ', '\n', '<!-- before -->', '<?pi x?>', '\r\n'), { maxLength: 3 }),
    element,
    fc.array(fc.constantFrom(' ', '\n', '<!-- after -->', '<?pi y?>'), { maxLength: 3 }),
  )
  .map(([declaration, before, root, after]) => `${declaration}${before.join('')}${root}${after.join('')}`);

/** Documents of the API in every folder of the fixtures. */
const fixtures = ['delivery-receipt', 'mobile-originate', 'webhooks', 'mt-status', 'preview', 'error-record', 'mt-request/valid', 'mt-request/malformed', 'mt-request/hostile']
  .flatMap((folder) => listFixtures(folder))
  .filter((path) => path.endsWith('.xml'))
  .map((path) => ({ path, xml: loadFixture(path) }));

describe('the one pass (readWellFormed) against fast-xml-parser alone', () => {
  it('builds the very tree fast-xml-parser builds for any well-formed document', () => {
    fc.assert(
      fc.property(document, (xml) => {
        expect(checkWellFormed(xml), xml).toBeUndefined();
        expect(readXmlTree(xml)).toStrictEqual(reference(xml));
      }),
      { numRuns: runs(5000) },
    );
  });

  it('reads a CR and an LF that an empty CDATA section separates as two line ends, as the reference does', () => {
    // Found by the property above: inlining the empty section used to join them into one CRLF.
    for (const xml of ['<a><a><a><a>\r<![CDATA[]]>\n</a></a></a></a>', '<a>x\r<![CDATA[]]>\n</a>']) {
      expect(parseXmlDocument(xml)).toStrictEqual({ ok: true, value: reference(xml) });
      expect(parseWithFastXmlParser(xml)).toMatchObject({ ok: true });
    }
    expect(parseWithFastXmlParser('<a>x\r<![CDATA[]]>\n</a>')).toStrictEqual({ ok: true, value: { rootName: 'a', root: 'x\n\n' } });
  });

  it('reads every XML fixture of every decoder itself, as fast-xml-parser does', () => {
    let read = 0;
    for (const { path, xml } of fixtures) {
      if (checkWellFormed(xml) !== undefined) continue;
      const tree = readXmlTree(xml);
      // Only the fixtures built to carry a name of Object.prototype are left to fast-xml-parser.
      if (tree === undefined) {
        expect(path).toMatch(/proto/);
        continue;
      }
      read++;
      expect(tree, path).toStrictEqual(reference(xml));
    }
    expect(read).toBeGreaterThan(25);
  });

  it('agrees with fast-xml-parser on random damage to the fixtures wherever the result is well-formed', () => {
    expect(withoutProcessingInstructions('<?xml version="1.0"?><?ml "a?><r/>')).toBe('<?xml version="1.0"?><r/>');
    const damage = fc.tuple(
      fc.nat(),
      fc.constantFrom('', '<', '>', '"', "'", '/', '<!-- x -->', '<![CDATA[x<y]]>', '<?p q?>', '<a/>', '<a>t</a>', ' x="1"', ' m:code="1"', 'ns:', 'é', '&amp;', '\r\n', '\r', ' '),
      fc.nat({ max: 3 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), fc.array(damage, { maxLength: 4 }), ({ xml: original }, edits) => {
        let xml = original;
        for (const [at, insert, remove] of edits) {
          const p = at % (xml.length + 1);
          xml = xml.slice(0, p) + insert + xml.slice(p + remove);
        }
        if (checkWellFormed(xml) !== undefined) return;
        const tree = readXmlTree(xml);
        if (tree === undefined) return;
        const expected = reference(xml);
        // fast-xml-parser refuses some well-formed processing instructions (a quote in their data):
        // both skip processing instructions, so the document without them must read the same.
        if (expected === 'parser') expect(tree).toStrictEqual(reference(withoutProcessingInstructions(xml)));
        else expect(tree).toStrictEqual(expected);
      }),
      { numRuns: runs(3000) },
    );
  });
});

describe('parseXmlDocument against the well-formedness checker', () => {
  const piece = fc.constantFrom(
    '<a>', '</a>', '<b x="1"/>', "<b x='&lt;'/>", '<c:d xmlns:c="u">', '</c:d>', '<![CDATA[x]]>', '<![CDATA[', ']]>', '<!-- c -->', '<!--',
    '-->', '<?pi data?>', '<?', '?>', '<?xml version="1.0"?>', '&amp;', '&#65;', '&nope;', '&', 'text', ' ', '\n', '\r', '"', '<', '>',
    '<!DOCTYPE a>', '<a b="1" b="2">', '</ a>', '<a/ >', '</a >', '<a\tb = "2" >',
  );

  it('accepts exactly the documents the checker accepts, with fast-xml-parser\'s tree', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const xml = pieces.join('');
        const problem = checkWellFormed(xml);
        const parsed = parseXmlDocument(xml);
        if (problem !== undefined) expect(parsed).toStrictEqual({ ok: false, error: problem });
        else expect(parsed).toStrictEqual({ ok: true, value: reference(xml) });
      }),
      { numRuns: runs(20_000) },
    );
  });
});

describe('the one pass against the two passes it replaces (checkWellFormed, then readXmlTree)', () => {
  const piece = fc.constantFrom(
    '<a>', '</a>', '<b x="1"/>', "<b x='&lt;'/>", '<c:d xmlns:c="u">', '</c:d>', '<![CDATA[x]]>', '<![CDATA[', ']]>', '<!-- c -->', '<!--',
    '-->', '<?pi data?>', '<?', '?>', '<?xml version="1.0"?>', '&amp;', '&#65;', '&#x0;', '&nope;', '&', 'text', ' ', '\n', '\r', '\r\n', '"', '<', '>',
    '<!DOCTYPE a>', '<a b="1" b="2">', '</ a>', '<a/ >', '</a >', '<a\tb = "2" >', '<a:b:c>', '</a:b:c>', '<__proto__>', '</__proto__>', '<a:>', '\u0001', '\uD800',
    '<e a0="" a1="" a2="" a3="" a4="" a5="" a6="" a7="" a8="" a9="" a0="">', '<b x="\r\n&#13;"/>', '<a b="x"c="y">', '<1/>', '<é ü="1">', '</é>', '<:s k="1"/>', '<:a>', '</:a>', '<:a:b/>', '<a:b:/>',
  );
  const depth = fc.constantFrom(32, 32, 1, 2, 4);
  // Keys a decoder hands over made (names of the generators and of the fixtures among them).
  const keys = new Map(['k', 'code', 'xmlns', 'é', '__proto__', 'ticketId', 'address', 'x'].map((name) => [name, `@${name}`]));
  const same = (xml: string, maxDepth: number): void => {
    const expected = readTwoPasses(xml, maxDepth);
    expect(readWellFormed(xml, maxDepth), xml).toStrictEqual(expected);
    expect(readWellFormed(xml, maxDepth, keys), xml).toStrictEqual(expected);
  };

  it('gives the same verdict and, for a well-formed document, the same tree on generated well-formed documents', () => {
    fc.assert(fc.property(document, depth, same), { numRuns: runs(3000) });
  });

  it('gives the same verdict and tree on random damage to the fixtures', () => {
    const damage = fc.tuple(
      fc.nat(),
      fc.constantFrom('', '<', '>', '"', "'", '/', ':', '<:', '&', '&x;', ']]>', '<!DOCTYPE r>', '<!-- x -->', '<![CDATA[x<y]]>', '<?p q?>', '<a/>', '<a>t</a>', '</a>', ' x="1"', ' x="1" x="2"', ' m:code="1"', 'ns:', 'é', '&amp;', '\r\n', '\r', ' ', '\u0000'),
      fc.nat({ max: 3 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), fc.array(damage, { maxLength: 4 }), depth, ({ xml: original }, edits, maxDepth) => {
        let xml = original;
        for (const [at, insert, remove] of edits) {
          const p = at % (xml.length + 1);
          xml = xml.slice(0, p) + insert + xml.slice(p + remove);
        }
        same(xml, maxDepth);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('gives the same verdict and tree on documents pieced together at random (mostly broken)', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 24 }), depth, (pieces, maxDepth) => same(pieces.join(''), maxDepth)), { numRuns: runs(10_000) });
  });

  it('gives the same verdict and tree on every fixture and on hostile documents', () => {
    for (const { xml } of fixtures) same(xml, 32);
    for (const xml of [
      `<r>${'<a>'.repeat(40)}${'</a>'.repeat(40)}</r>`,
      `<r ${Array.from({ length: MAX_ATTRIBUTES + 1 }, (_, i) => `a${i}="${i}"`).join(' ')}/>`,
      `<r ${Array.from({ length: MAX_ATTRIBUTES }, (_, i) => `a${i}="${i}"`).join(' ')}/>`,
      `<r ${Array.from({ length: 20 }, (_, i) => `a${i}="${i}"`).join(' ')} a3="x"/>`,
      `<r>${'&e;'.repeat(100)}</r>`,
      loadFixture('delivery-receipt/hostile-billion-laughs.xml'),
    ]) same(xml, 32);
  });
});

describe('the tree of the one pass', () => {
  it('keeps raw values, local element names, attribute names as written, and text runs in order', () => {
    expect(readXmlTree('<?xml version="1.0"?><a:r xmlns:a="urn:x" k="1 &amp; 2"><a:c v="&#x1F44B;"/><t>hi &lt;3</t><e/></a:r>')).toStrictEqual({
      rootName: 'r',
      root: { '@xmlns:a': 'urn:x', '@k': '1 &amp; 2', c: { '@v': '&#x1F44B;' }, t: 'hi &lt;3', e: '' },
    });
    expect(readXmlTree('<r k="1">\r\n <a>x</a><!-- c -->\r<a/><![CDATA[<&>]]></r>')).toStrictEqual({
      rootName: 'r',
      root: { '@k': '1', a: ['x', ''], '#text': '\n \n&lt;&amp;&gt;' },
    });
  });

  it.each([
    ['__proto__', '<r><__proto__ polluted="yes"/></r>'],
    ['constructor', '<r><a:constructor/></r>'],
    ['prototype', '<r><prototype>x</prototype></r>'],
    ['hasOwnProperty', '<r><hasOwnProperty/></r>'],
    ['toString', '<toString/>'],
    ['a:b:c (two colons)', '<r><a:b:c k="1"/><a:b:c>t</a:b:c></r>'],
    ['a: (no local name)', '<r><a:>t</a:></r>'],
  ])('leaves an element named %s to fast-xml-parser, polluting nothing', (_name, xml) => {
    expect(readXmlTree(xml)).toBeUndefined();
    expect(parseXmlDocument(xml)).toStrictEqual(parseWithFastXmlParser(xml));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('reads an element whose name begins with its colon under the local name, as fast-xml-parser does', () => {
    const xml = '<r><:s k="1"/><:t>x</:t></r>';
    expect(readXmlTree(xml)).toStrictEqual({ rootName: 'r', root: { s: { '@k': '1' }, t: 'x' } });
    expect(readXmlTree(xml)).toStrictEqual(reference(xml));
  });

  it('leaves every member of Object.prototype, and prototype, to fast-xml-parser, whatever its first letter', () => {
    const names = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      expect(isReservedName(name), name).toBe(true);
      expect(readXmlTree(`<r><${name}/><x/></r>`), name).toBeUndefined();
    }
    for (const name of ['content', 'type', 'value', 'isPrototypeOf_', '_', 'hasOwn', 'deliveryReceipt']) expect(isReservedName(name), name).toBe(false);
  });

  it('reads a well-formed document whose processing instruction holds a quote (fast-xml-parser refuses it)', () => {
    const xml = '<?xml version="1.0"?>\n<?note "unbalanced?><r k="1"><c>t</c></r>';
    expect(checkWellFormed(xml)).toBeUndefined();
    expect(parseWithFastXmlParser(xml)).toStrictEqual({ ok: false, error: 'parser' });
    expect(parseXmlDocument(xml)).toStrictEqual({ ok: true, value: { rootName: 'r', root: { '@k': '1', c: 't' } } });
  });

  it('reads attributes named like members of Object.prototype as plain members', () => {
    const doc = readXmlTree('<r __proto__="1" constructor="2" toString="3"/>');
    expect(doc).toStrictEqual(reference('<r __proto__="1" constructor="2" toString="3"/>'));
    expect(Object.getPrototypeOf(doc?.root)).toBe(Object.prototype);
  });
});

describe('hostile documents', () => {
  const hostile: ReadonlyArray<readonly [string, string, string]> = [
    ['billion laughs', loadFixture('delivery-receipt/hostile-billion-laughs.xml'), 'doctype'],
    ['an external entity', loadFixture('delivery-receipt/hostile-external-entity.xml'), 'doctype'],
    ['deep nesting', `<r>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</r>`, 'too-deep'],
    ['an unterminated CDATA section', `<r><![CDATA[${'x'.repeat(60_000)}</r>`, 'unterminated'],
    ['an unterminated comment', `<r><!--${' <a>'.repeat(15_000)}</r>`, 'unterminated'],
    ['an unterminated attribute', `<r a="${'x'.repeat(60_000)}/>`, 'unterminated'],
    ['markup in an attribute', `<r a="${'<'.repeat(60_000)}"/>`, 'bad-attribute'],
    ['undeclared entities', `<r>${'&e;'.repeat(20_000)}</r>`, 'entity'],
    ['a repeated attribute after many', `<r ${Array.from({ length: MAX_ATTRIBUTES - 1 }, (_, i) => `a${i}="1"`).join(' ')} a0="2"/>`, 'duplicate-attribute'],
    ['thousands of attributes on one element', `<r ${Array.from({ length: 5_000 }, (_, i) => `a${i}="${i}"`).join(' ')}/>`, 'too-many-attributes'],
    ['one attribute more than the cap', `<r ${Array.from({ length: MAX_ATTRIBUTES + 1 }, (_, i) => `a${i}="${i}"`).join(' ')}/>`, 'too-many-attributes'],
  ];

  it.each(hostile)('refuses %s with the checker\'s answer', (_what, xml, problem) => {
    expect(checkWellFormed(xml)).toBe(problem);
    expect(parseXmlDocument(xml)).toStrictEqual({ ok: false, error: problem });
  });

  it('reads a huge attribute, as many attributes as the cap allows, and thousands of elements, as fast-xml-parser does', () => {
    for (const xml of [
      `<r a="${'x&amp;'.repeat(12_000)}"/>`,
      `<r ${Array.from({ length: MAX_ATTRIBUTES }, (_, i) => `a${i}="${i}"`).join(' ')}/>`,
      `<r>${'<a k="1"/>'.repeat(5_000)}</r>`,
    ]) {
      expect(checkWellFormed(xml)).toBeUndefined();
      expect(readXmlTree(xml)).toStrictEqual(reference(xml));
    }
  });
});
