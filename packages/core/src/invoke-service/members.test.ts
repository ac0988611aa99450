import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVOKE_LIMITS, INVOKE_SCOPES, KEY_PATTERN, VALUE_PATTERN, canonicalScope, isKeyCharacter, scopeIndex, valueCharacterProblem } from './members.js';
import { runs } from '../../test/property-runs.js';

const keyRegExp = new RegExp(KEY_PATTERN);
const valueRegExp = new RegExp(VALUE_PATTERN);
/** Strings mixing allowed and edge characters: controls, surrogates (paired and lone), colons. */
const edgyString = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', 'Z', '_', '-', '.', '0', ' ', ':', '\t', '\n', '\r', '\u0000', '\u001f', '\u007f', '\ud7ff', '\ue000', '\uffff', '\ud83d', '\ude00', '😀', 'é'),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 300,
});

describe('one rule, two forms', () => {
  it('KEY_PATTERN accepts exactly the keys isKeyCharacter and the length limits accept', () => {
    fc.assert(
      fc.property(edgyString, (key) => {
        let characters = true;
        for (let i = 0; i < key.length; i++) if (!isKeyCharacter(key.charCodeAt(i))) characters = false;
        const expected = characters && key.length >= INVOKE_LIMITS.keyMinLength && key.length <= INVOKE_LIMITS.keyMaxLength;
        expect(keyRegExp.test(key)).toBe(expected);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('VALUE_PATTERN accepts exactly the values valueCharacterProblem accepts', () => {
    fc.assert(
      fc.property(edgyString, (value) => {
        expect(valueRegExp.test(value)).toBe(valueCharacterProblem(value) === undefined);
      }),
      { numRuns: runs(2000) },
    );
  });

  it.each([
    ['plain text, tab, CR, LF', 'a\tb\r\nc', undefined],
    ['a pair', 'a😀', 'outside-bmp'],
    ['a lone high surrogate at the end', 'a\ud83d', 'disallowed'],
    ['a lone low surrogate', '\ude00a', 'disallowed'],
    ['NUL', 'a\u0000', 'disallowed'],
    ['the first offender decides', '\u0001😀', 'disallowed'],
  ])('valueCharacterProblem: %s', (_, value, problem) => {
    expect(valueCharacterProblem(value)).toBe(problem);
  });
});

describe('scope names', () => {
  it('match in any ASCII case and only in ASCII', () => {
    expect(canonicalScope('UserServiceColl')).toBe('userservicecoll');
    expect(scopeIndex('SESSION')).toBe(INVOKE_SCOPES.indexOf('session'));
    expect(scopeIndex('request')).toBe(0);
    expect(canonicalScope('USERſERVICE')).toBeUndefined();
    expect(canonicalScope('SESS\u0130ON')).toBeUndefined();
    expect(scopeIndex('global')).toBe(-1);
    expect(scopeIndex('')).toBe(-1);
  });
});
