import { describe, expect, it } from 'vitest';
import { fillPlaceholders, lintTemplate, stripFinalNewline, templatesOf } from './lint-templates.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('templatesOf', () => {
  it('reads a text file as one template without its final line break', () => {
    expect(templatesOf('a.txt', bytes('Hi\n'))).toEqual({ ok: true, value: [{ name: 'a.txt', text: 'Hi' }] });
    expect(stripFinalNewline('a\r\n')).toBe('a');
    expect(stripFinalNewline('a\n\n')).toBe('a\n');
  });

  it('reads the string values of a JSON file by key path', () => {
    expect(templatesOf('m.json', bytes('{"en":{"a":"A","list":["B",1]},"n":2}'))).toEqual({
      ok: true,
      value: [
        { name: 'm.json#en.a', text: 'A' },
        { name: 'm.json#en.list.0', text: 'B' },
      ],
    });
  });

  it('refuses bytes that are not UTF-8 and JSON that does not parse', () => {
    expect(templatesOf('a.txt', new Uint8Array([0xff]))).toEqual({ ok: false, error: 'not UTF-8 text' });
    expect(templatesOf('a.json', bytes('{')).ok).toBe(false);
  });
});

describe('lintTemplate', () => {
  it('fills placeholders that have a value', () => {
    expect(fillPlaceholders('{{ a }}-{{b}}', new Map([['a', '1']]))).toBe('1-{{b}}');
  });

  it('passes GSM within budget, fails UCS-2 and an exceeded budget', () => {
    expect(lintTemplate('t', 'Hello').ok).toBe(true);
    expect(lintTemplate('t', 'Hello ’').problems.map((p) => p.code)).toEqual(['leaves-gsm']);
    expect(lintTemplate('t', 'Hello ’', { allowUcs2: true }).ok).toBe(true);
    expect(lintTemplate('t', 'x'.repeat(161)).problems).toEqual([{ code: 'over-budget', description: 'costs 2 parts, the budget is 1' }]);
    expect(lintTemplate('t', 'x'.repeat(161), { maxParts: 2 }).ok).toBe(true);
    expect(lintTemplate('t', '{{code}}', { variables: new Map([['code', 'x'.repeat(200)]]) }).segments).toBe(2);
  });
});
