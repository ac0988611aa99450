import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSyntaxError, lineAndColumn } from './json-location.js';

describe('jsonSyntaxError', () => {
  it('locates the first syntax error by line and column', () => {
    expect(jsonSyntaxError('{"a":1,\n "b" 2}')).toEqual({ line: 2, column: 6, problem: "':' expected" });
    expect(jsonSyntaxError('{"a":1')).toEqual({ line: 1, column: 7, problem: "',' or '}' expected" });
    expect(jsonSyntaxError('[1,]')).toEqual({ line: 1, column: 4, problem: 'a value expected' });
    expect(jsonSyntaxError('{"a":"x\ty"}')).toEqual({ line: 1, column: 6, problem: 'control character in a string (escape it)' });
    expect(jsonSyntaxError('{"a":"x\ny"}')).toEqual({ line: 1, column: 6, problem: 'unterminated string' });
    expect(jsonSyntaxError('{"a":1} // note')).toEqual({ line: 1, column: 9, problem: 'comments are not JSON' });
    expect(jsonSyntaxError('')).toEqual({ line: 1, column: 1, problem: 'a value expected' });
  });

  it('is undefined for any JSON document, and never throws on any text', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => jsonSyntaxError(JSON.stringify(value, null, 1)) === undefined));
    fc.assert(
      fc.property(fc.string(), (text) => {
        const found = jsonSyntaxError(text);
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        return valid ? found === undefined : found !== undefined && found.line >= 1 && found.column >= 1;
      }),
    );
  });
});

describe('lineAndColumn', () => {
  it('counts lines and columns from 1', () => {
    expect(lineAndColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd', 2)).toEqual({ line: 1, column: 3 });
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
