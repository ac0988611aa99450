import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNdjsonPath, ndjsonRecords } from './ndjson-records.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('ndjsonRecords', () => {
  it('splits on line feeds, drops a \\r before them, skips blank lines and numbers lines from 1', () => {
    expect(ndjsonRecords(encode('{"a":1}\r\n\n  \n{"b":2}')).map((r) => [r.line, decode(r.bytes)])).toEqual([
      [1, '{"a":1}'],
      [4, '{"b":2}'],
    ]);
    expect(ndjsonRecords(encode(''))).toEqual([]);
  });

  it('keeps every record whole: the records of JSON lines joined back are the lines', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), fc.boolean(), (values, crlf) => {
        const lines = values.map((value) => JSON.stringify(value));
        const records = ndjsonRecords(encode(lines.join(crlf ? '\r\n' : '\n')));
        expect(records.map((r) => decode(r.bytes))).toEqual(lines);
        expect(records.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
      }),
    );
  });

  it('keeps invalid UTF-8 bytes as they are', () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d, 0x0a, 0x7b, 0x7d]);
    expect(ndjsonRecords(bytes).map((r) => [...r.bytes])).toEqual([[0x7b, 0xff, 0x7d], [0x7b, 0x7d]]);
  });

  it('knows .ndjson and .jsonl in any case', () => {
    expect(['a.ndjson', 'B.JSONL', 'c.json'].map(isNdjsonPath)).toEqual([true, true, false]);
  });
});
