import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { listFixtures, loadFixture, loadFixtureBytes } from '../../test/fixtures.js';
import { MT_INVALID } from '../errors/catalogue.js';
import { decodeMtRequest, encodeMtRequest } from './codec.js';
import { MtRequestSchema, type MtRequest } from './schema.js';

const invalidJson = { ok: false, error: { code: '540', description: 'Invalid request - invalid JSON in the payload', rule: 'invalidJson' } };
const invalidXml = { ok: false, error: { code: '540', description: 'Invalid request - invalid XML in the payload', rule: 'invalidXml' } };

const names = listFixtures('mt-request/valid/expected').map((path) => (path.split('/').pop() as string).replace(/\.json$/, ''));
const jsonNames = new Set(listFixtures('mt-request/valid/json').map((p) => (p.split('/').pop() as string).replace(/\.json$/, '')));
const xmlNames = new Set(listFixtures('mt-request/valid/xml').map((p) => (p.split('/').pop() as string).replace(/\.xml$/, '')));
const expected = (name: string) => JSON.parse(loadFixture(`mt-request/valid/expected/${name}.json`)) as MtRequest;

describe('decodeMtRequest: valid fixtures', () => {
  it('has a JSON or XML body for every expected value, and covers each message type and charset', () => {
    for (const name of names) expect(jsonNames.has(name) || xmlNames.has(name), name).toBe(true);
    const values = names.map(expected);
    expect(new Set(values.map((v) => v.message.type))).toEqual(new Set(['text', 'hexEncodedText', 'binary', 'wapPush']));
    const hexCharsets = values.filter((v) => v.message.type === 'hexEncodedText').map((v) => v.message.charset);
    expect(new Set(hexCharsets)).toEqual(new Set(['GSM', 'Latin-1', 'UTF-8', 'UTF-16']));
  });

  for (const name of names) {
    if (jsonNames.has(name)) {
      it(`json: ${name}`, () => {
        const result = decodeMtRequest(loadFixture(`mt-request/valid/json/${name}.json`), 'json');
        expect(result).toStrictEqual({ ok: true, value: expected(name) });
        expect(Value.Check(MtRequestSchema, (result as { value: unknown }).value)).toBe(true);
      });
      it(`json bytes: ${name}`, () => {
        expect(decodeMtRequest(loadFixtureBytes(`mt-request/valid/json/${name}.json`), 'json')).toStrictEqual({ ok: true, value: expected(name) });
      });
    }
    if (xmlNames.has(name)) {
      it(`xml: ${name}`, () => {
        const result = decodeMtRequest(loadFixture(`mt-request/valid/xml/${name}.xml`), 'xml');
        expect(result).toStrictEqual({ ok: true, value: expected(name) });
        expect(Value.Check(MtRequestSchema, (result as { value: unknown }).value)).toBe(true);
      });
      it(`xml bytes: ${name}`, () => {
        expect(decodeMtRequest(loadFixtureBytes(`mt-request/valid/xml/${name}.xml`), 'xml')).toStrictEqual({ ok: true, value: expected(name) });
      });
    }
  }

  it('normalises "true"/"false" strings and digit strings', () => {
    const result = decodeMtRequest(loadFixture('mt-request/valid/json/string-scalars.json'), 'json');
    expect(result.ok && result.value).toMatchObject({
      promotional: true,
      options: { flash: false },
      destination: { mobileOperatorId: 383 },
      source: { ton: 3 },
      message: { udh: false, validityPeriod: 259200 },
    });
  });

  it('drops unknown members, attributes and elements', () => {
    for (const [file, format] of [['json/unknown-members.json', 'json'], ['xml/unknown-members.xml', 'xml']] as const) {
      const result = decodeMtRequest(loadFixture(`mt-request/valid/${file}`), format);
      expect(result).toStrictEqual({ ok: true, value: expected('unknown-members') });
    }
  });

  it('reads prefixed, default, other and absent namespaces the same', () => {
    const value = expected('text-full');
    for (const name of ['text-full', 'prefixed-namespace', 'no-namespace', 'https-namespace', 'other-namespace']) {
      expect(decodeMtRequest(loadFixture(`mt-request/valid/xml/${name}.xml`), 'xml'), name).toStrictEqual({ ok: true, value });
    }
  });

  it('takes a byte order mark before a JSON or XML body', () => {
    const json = `\ufeff${loadFixture('mt-request/valid/json/text.json')}`;
    expect(decodeMtRequest(json, 'json')).toStrictEqual({ ok: true, value: expected('text') });
    const bytes = loadFixtureBytes('mt-request/valid/xml/text.xml');
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
    expect(decodeMtRequest(withBom, 'xml')).toStrictEqual({ ok: true, value: expected('text') });
  });
});

describe('decodeMtRequest: bodies that are not an MT request', () => {
  const jsonBodies = listFixtures('mt-request/malformed').filter((p) => p.endsWith('.json'));
  const xmlBodies = listFixtures('mt-request/malformed').filter((p) => p.endsWith('.xml'));

  for (const path of jsonBodies) {
    it(`json: ${path.split('/').pop()} is "invalid JSON in the payload"`, () => {
      expect(decodeMtRequest(loadFixture(path), 'json')).toEqual(invalidJson);
    });
  }
  for (const path of xmlBodies) {
    it(`xml: ${path.split('/').pop()} is "invalid XML in the payload"`, () => {
      expect(decodeMtRequest(loadFixture(path), 'xml')).toEqual(invalidXml);
    });
  }

  it('reports a repeated member at depth 1, 2 and 3 of a JSON body', () => {
    for (const depth of [1, 2, 3]) {
      expect(decodeMtRequest(loadFixture(`mt-request/malformed/duplicate-depth-${depth}.json`), 'json'), `depth ${depth}`).toEqual(invalidJson);
    }
  });

  it('reads a JSON body as JSON and an XML body as XML only', () => {
    expect(decodeMtRequest(loadFixture('mt-request/valid/xml/text.xml'), 'json')).toEqual(invalidJson);
    expect(decodeMtRequest(loadFixture('mt-request/valid/json/text.json'), 'xml')).toEqual(invalidXml);
  });

  it('rejects a body over maxBytes before parsing it, and takes one within it', () => {
    const body = loadFixture('mt-request/valid/json/text.json');
    const size = new TextEncoder().encode(body).length;
    expect(decodeMtRequest(body, 'json', { maxBytes: size - 1 })).toEqual(invalidJson);
    expect(decodeMtRequest(body, 'json', { maxBytes: size }).ok).toBe(true);
    const xmlBody = loadFixtureBytes('mt-request/valid/xml/text.xml');
    expect(decodeMtRequest(xmlBody, 'xml', { maxBytes: xmlBody.length - 1 })).toEqual(invalidXml);
  });

  it('throws a TypeError for a format other than json or xml', () => {
    expect(() => decodeMtRequest('{}', 'yaml' as 'json')).toThrow(TypeError);
  });

  it('answers a body that is not a string or bytes with the invalid body description', () => {
    expect(decodeMtRequest(42 as unknown as string, 'json')).toEqual(invalidJson);
    expect(decodeMtRequest(null as unknown as string, 'xml')).toEqual(invalidXml);
  });
});

describe('decodeMtRequest: hostile bodies', () => {
  it('refuses entity expansion, external entities, DOCTYPE and undeclared entities', () => {
    for (const name of ['billion-laughs', 'external-entity', 'doctype', 'undeclared-entity']) {
      expect(decodeMtRequest(loadFixture(`mt-request/hostile/${name}.xml`), 'xml'), name).toEqual(invalidXml);
    }
  });

  it('refuses 100k-deep nesting without a stack overflow', () => {
    const depth = 100_000;
    const json = `{"mobileTerminate":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(decodeMtRequest(json, 'json')).toEqual(invalidJson);
    const deepObject = `{"mobileTerminate":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    expect(decodeMtRequest(deepObject, 'json')).toEqual(invalidJson);
    const xml = `<mobileTerminate>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</mobileTerminate>`;
    expect(decodeMtRequest(xml, 'xml')).toEqual(invalidXml);
  });

  it('refuses a 5 MB body, as a string or as bytes', () => {
    const padding = ' '.repeat(5 * 1024 * 1024);
    const json = `{"mobileTerminate":{"destination":{"address":"447700900123"},"message":{"type":"text","content":"x"}}${padding}}`;
    expect(decodeMtRequest(json, 'json')).toEqual(invalidJson);
    const bytes = new Uint8Array(5 * 1024 * 1024).fill(0x20);
    expect(decodeMtRequest(bytes, 'xml')).toEqual(invalidXml);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(decodeMtRequest(loadFixtureBytes('mt-request/hostile/invalid-utf8.json'), 'json')).toEqual(invalidJson);
    expect(decodeMtRequest(loadFixtureBytes('mt-request/hostile/invalid-utf8.xml'), 'xml')).toEqual(invalidXml);
    expect(decodeMtRequest('{"mobileTerminate":"\ud800"}', 'json')).toEqual(invalidJson);
  });

  it('treats __proto__, constructor and prototype members as plain data and pollutes nothing', () => {
    const result = decodeMtRequest(loadFixture('mt-request/hostile/proto-members.json'), 'json');
    expect(result).toStrictEqual({ ok: true, value: { destination: { address: '447700900123' }, message: { type: 'text', content: 'proto' } } });
    const value = (result as { value: MtRequest }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(value.message)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).interaction).toBeUndefined();
  });

  it('never takes required members from a __proto__ member', () => {
    expect(decodeMtRequest(loadFixture('mt-request/hostile/proto-members-only.json'), 'json')).toEqual({
      ok: false,
      error: { code: '540', description: MT_INVALID.destinationAddressRequired, rule: 'destinationAddressRequired' },
    });
    expect(({} as Record<string, unknown>).destination).toBeUndefined();
  });

  it('refuses __proto__ and constructor elements, ignores such attributes, and pollutes nothing', () => {
    expect(decodeMtRequest(loadFixture('mt-request/hostile/proto-elements.xml'), 'xml')).toEqual(invalidXml);
    expect(decodeMtRequest(loadFixture('mt-request/hostile/proto-attributes.xml'), 'xml')).toStrictEqual({
      ok: true,
      value: { destination: { address: '447700900123' }, message: { type: 'text', content: 'proto' } },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores members inherited from a polluted Object.prototype', () => {
    const proto = Object.prototype as Record<string, unknown>;
    try {
      proto.charset = 'GSM';
      proto.udh = true;
      proto.interaction = 'one-way';
      const hex = loadFixture('mt-request/valid/json/hex-gsm.json').replace('"charset": "GSM",', '');
      expect(decodeMtRequest(hex, 'json')).toEqual({ ok: false, error: { code: '540', description: MT_INVALID.charset, rule: 'charset' } });
      const text = decodeMtRequest(loadFixture('mt-request/valid/json/text.json'), 'json');
      expect(text.ok && Object.keys(text.value)).toEqual(['destination', 'message']);
      proto.destination = { address: '447700900123' };
      expect(decodeMtRequest('{"mobileTerminate":{"message":{"type":"text","content":"x"}}}', 'json')).toEqual({
        ok: false,
        error: { code: '540', description: MT_INVALID.destinationAddressRequired, rule: 'destinationAddressRequired' },
      });
    } finally {
      delete proto.charset;
      delete proto.udh;
      delete proto.interaction;
      delete proto.destination;
    }
  });
});

describe('encodeMtRequest', () => {
  const full = expected('text-full');

  it('writes JSON members in the spec order with JSON Booleans and numbers', () => {
    expect(encodeMtRequest(full, 'json')).toBe(
      '{"mobileTerminate":{"interaction":"two-way","promotional":false,' +
        '"options":{"programId":"PROG1","note1":"order 1234","note2":"customer 42","flash":false},' +
        '"destination":{"address":"447700900123","mobileOperatorId":383},"source":{"address":"60001","ton":3},' +
        '"message":{"type":"text","content":"Your code is 1234","charset":"UTF-8","validityPeriod":3600,' +
        '"url":"https://example.com/info","mlc":"segment","udh":false},' +
        '"delivery":{"receiptRequested":"final","url":"https://example.com/receipts"}}}',
    );
  });

  it('writes XML with the mt namespace, attributes for scalars and <content> for the text', () => {
    expect(encodeMtRequest(full, 'xml')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><mobileTerminate xmlns="http://sms.openmarket.com/v4/mt" interaction="two-way" promotional="false">' +
        '<options programId="PROG1" note1="order 1234" note2="customer 42" flash="false"/>' +
        '<destination address="447700900123" mobileOperatorId="383"/><source address="60001" ton="3"/>' +
        '<message type="text" charset="UTF-8" udh="false" url="https://example.com/info" validityPeriod="3600" mlc="segment">' +
        '<content>Your code is 1234</content></message>' +
        '<delivery receiptRequested="final" url="https://example.com/receipts"/></mobileTerminate>',
    );
  });

  it('writes another namespace, or none', () => {
    const minimal = expected('text');
    expect(encodeMtRequest(minimal, 'xml', { namespace: 'https://sms.openmarket.com/v4/mt' })).toContain('<mobileTerminate xmlns="https://sms.openmarket.com/v4/mt">');
    expect(encodeMtRequest(minimal, 'xml', { namespace: null })).toContain('<mobileTerminate><destination');
    expect(encodeMtRequest(minimal, 'xml', { namespace: undefined })).toContain('xmlns="http://sms.openmarket.com/v4/mt"');
  });

  it('escapes markup and the white space an XML parser would normalise', () => {
    const value: MtRequest = {
      options: { note1: 'a\tb\nc\r"d"<e>&' },
      destination: { address: '447700900123' },
      message: { type: 'text', content: ' <b>&amp;</b>\r\n\t]]> ' },
    };
    const xml = encodeMtRequest(value, 'xml');
    expect(xml).toContain('note1="a&#9;b&#10;c&#13;&quot;d&quot;&lt;e&gt;&amp;"');
    expect(xml).toContain('<content> &lt;b&gt;&amp;amp;&lt;/b&gt;&#13;\n\t]]&gt; </content>');
    expect(decodeMtRequest(xml, 'xml')).toStrictEqual({ ok: true, value });
  });

  it('encodes every valid fixture so that it decodes back to the same value, in both formats', () => {
    for (const name of names) {
      const value = expected(name);
      for (const format of ['json', 'xml'] as const) {
        expect(decodeMtRequest(encodeMtRequest(value, format), format), `${name} ${format}`).toStrictEqual({ ok: true, value });
      }
    }
  });

  it('throws a TypeError naming hexEncodedText for a C0 control character in XML, and writes it in JSON', () => {
    const value: MtRequest = { destination: { address: '447700900123' }, message: { type: 'text', content: 'bell\u0007' } };
    expect(() => encodeMtRequest(value, 'xml')).toThrow(
      new TypeError(
        'encodeMtRequest: message.content holds U+0007 at index 4, which an XML 1.0 document cannot carry; send such text as hexEncodedText content, or encode the request as JSON',
      ),
    );
    expect(decodeMtRequest(encodeMtRequest(value, 'json'), 'json')).toStrictEqual({ ok: true, value });
  });

  it('throws a TypeError for U+FFFE, U+FFFF and lone surrogates in XML, naming the member', () => {
    const base: MtRequest = { destination: { address: '447700900123' }, message: { type: 'text', content: 'x' } };
    expect(() => encodeMtRequest({ ...base, options: { note2: 'a\uffff' } }, 'xml')).toThrow(/options\.note2 holds U\+FFFF at index 1/);
    expect(() => encodeMtRequest({ ...base, options: { note1: '\ufffe' } }, 'xml')).toThrow(/options\.note1 holds U\+FFFE/);
    expect(() => encodeMtRequest({ ...base, options: { programId: 'a\ud800b' } }, 'xml')).toThrow(/programId holds a lone surrogate \(U\+D800\) at index 1/);
    expect(() => encodeMtRequest({ ...base, options: { note1: '\udc00' } }, 'xml')).toThrow(TypeError);
  });

  it('throws a TypeError for a wrong format, a value that is not an object, or a bad namespace', () => {
    const value = expected('text');
    expect(() => encodeMtRequest(value, 'csv' as 'json')).toThrow(TypeError);
    expect(() => encodeMtRequest(null as unknown as MtRequest, 'json')).toThrow(TypeError);
    expect(() => encodeMtRequest('x' as unknown as MtRequest, 'xml')).toThrow(TypeError);
    expect(() => encodeMtRequest(value, 'xml', { namespace: 5 as unknown as string })).toThrow(TypeError);
  });

  it('does not write members the spec does not define', () => {
    const value = { ...expected('text'), extra: 1, message: { ...expected('text').message, colour: 'red' } } as MtRequest;
    expect(encodeMtRequest(value, 'json')).not.toMatch(/extra|colour/);
    expect(encodeMtRequest(value, 'xml')).not.toMatch(/extra|colour/);
  });
});
