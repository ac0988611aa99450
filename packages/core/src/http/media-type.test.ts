import { describe, expect, it } from 'vitest';
import { formatForAccept, formatOfContentType } from './media-type.js';

describe('formatOfContentType', () => {
  it.each([
    ['application/json; charset=UTF-8', 'json'],
    ['application/json', 'json'],
    ['APPLICATION/JSON;charset=utf-8', 'json'],
    ['application/vnd.api+json', 'json'],
    ['application/xml', 'xml'],
    ['application/xml; charset=UTF-8', 'xml'],
    ['text/xml', 'xml'],
    ['application/soap+xml', 'xml'],
    ['text/plain', undefined],
    ['application/x-www-form-urlencoded', undefined],
    ['application/json; charset=ISO-8859-1', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%j → %j', (header, format) => {
    expect(formatOfContentType(header)).toBe(format);
  });

  it.each(['application/xml; charset=UTF-8', 'application/json; charset=UTF-8'])(
    'answers the common value %j as the same value written differently (upper case, spaces)',
    (header) => {
      const written = ` ${header.toUpperCase().replace(';', ' ;')} `;
      expect(formatOfContentType(header)).toBeDefined();
      expect(formatOfContentType(header)).toBe(formatOfContentType(written));
    },
  );
});

describe('formatForAccept', () => {
  it.each([
    [undefined, 'xml'],
    ['', 'xml'],
    ['*/*', 'xml'],
    ['application/xml', 'xml'],
    ['application/json', 'json'],
    ['application/json, application/xml;q=0.5', 'json'],
    ['application/xml, application/json;q=0.5', 'xml'],
    ['application/json;q=0', 'xml'],
    ['text/html', 'xml'],
  ])('%j → %s', (header, format) => {
    expect(formatForAccept(header)).toBe(format);
  });
});
