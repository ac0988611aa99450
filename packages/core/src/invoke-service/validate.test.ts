import { describe, expect, it } from 'vitest';
import { INVOKE_ERRORS, INVOKE_INVALID } from '../errors/catalogue.js';
import { decodeInvokeServiceRequest } from './codec.js';
import { DEFAULT_BUILT_IN_VARIABLES, DEFAULT_RESERVED_WORDS } from './defaults.js';
import { validateInvokeServiceRequest } from './validate.js';

const P = 'Invalid JSON in the payload';
const phone = '"endUser":{"phoneNumber":14155550100}';
/** A request whose `variables` member is `variables` (JSON text). */
const withVariables = (variables: string) => `{${phone},"variables":${variables}}`;
/** A request with one scope `user` holding `members` (JSON text). */
const inUser = (members: string) => withVariables(`{"user":{${members}}}`);
const long = (n: number, c = 'A') => c.repeat(n);

function expect12002(body: string, description: string) {
  expect(decodeInvokeServiceRequest(body)).toEqual({ ok: false, error: { code: 12002, description } });
}

describe('12002 descriptions', () => {
  it('every rule starts with the catalogue description of 12002', () => {
    for (const description of Object.values(INVOKE_INVALID)) expect(description.startsWith(INVOKE_ERRORS[12002].description)).toBe(true);
    expect(new Set(Object.values(INVOKE_INVALID)).size).toBe(Object.keys(INVOKE_INVALID).length);
  });
});

describe('body-level 12002', () => {
  it.each([
    ['truncated JSON', '{"endUser":'],
    ['empty body', ''],
    ['trailing garbage', `{${phone}} x`],
    ['single quotes', "{'endUser':{}}"],
  ])('%s → plain syntax description', (_, body) => expect12002(body, P));

  it.each([['[]'], ['"text"'], ['14155550100'], ['null'], ['true']])('%s → not an object', (body) =>
    expect12002(body, `${P} - body is not a JSON object`),
  );

  it('a repeated member anywhere', () => {
    expect12002('{"endUser":{"phoneNumber":123456,"phoneNumber":123456}}', `${P} - a member is repeated`);
    expect12002(withVariables('{"user":{"A":"1"},"user":{"B":"2"}}'), `${P} - a member is repeated`);
    expect12002(inUser('"NAME":"a","NAME":"b"'), `${P} - a member is repeated`);
  });

  it('nesting deeper than the parser accepts', () => {
    expect12002(`{${phone},"x":${'['.repeat(100)}${']'.repeat(100)}}`, `${P} - body is nested too deeply`);
  });
});

describe('endUser', () => {
  it.each([['{}'], ['{"variables":{"user":{"A":"b"}}}'], ['{"enduser":{"phoneNumber":14155550100}}']])('%s → endUser missing', (body) =>
    expect12002(body, `${P} - endUser is missing`),
  );
  it.each([['null'], ['[]'], ['"x"'], ['14155550100'], ['[{"phoneNumber":14155550100}]']])('endUser %s → not an object', (endUser) =>
    expect12002(`{"endUser":${endUser}}`, `${P} - endUser is not an object`),
  );
  it.each([['{}'], ['{"mobileOperatorId":383}'], ['{"PhoneNumber":14155550100}']])('endUser %s → phoneNumber missing', (endUser) =>
    expect12002(`{"endUser":${endUser}}`, `${P} - endUser.phoneNumber is missing`),
  );
  it.each([
    ['a JSON string of digits', '"14155550100"'],
    ['a string with +', '"+14155550100"'],
    ['a negative number', '-14155550100'],
    ['negative zero', '-0'],
    ['zero', '0'],
    ['a decimal', '1415555010.5'],
    ['an integer written with a fraction', '1000000.0'],
    ['an integer written with an exponent', '1e6'],
    ['an exponent with a fraction', '1.4155550100e10'],
    ['5 digits', '12345'],
    ['17 digits', '12345678901234567'],
    ['17 nines (beyond 2^53)', '99999999999999999'],
    ['null', 'null'],
    ['a Boolean', 'true'],
    ['an object', '{}'],
    ['an array', '[14155550100]'],
  ])('phoneNumber as %s → malformed', (_, value) =>
    expect12002(`{"endUser":{"phoneNumber":${value}}}`, `${P} - endUser.phoneNumber is not an integer of 6 to 16 digits`),
  );
  it.each([
    ['a negative number', '-1'],
    ['negative zero', '-0'],
    ['a decimal', '1.5'],
    ['an integer written with a fraction', '383.0'],
    ['an integer written with an exponent', '3e2'],
    ['beyond 2^53', '9007199254740993'],
    ['a string', '"383"'],
    ['null', 'null'],
    ['a Boolean', 'false'],
    ['UNKNOWN', '"UNKNOWN"'],
  ])('mobileOperatorId as %s → malformed', (_, value) =>
    expect12002(`{"endUser":{"phoneNumber":14155550100,"mobileOperatorId":${value}}}`, `${P} - endUser.mobileOperatorId is not a non-negative integer`),
  );
});

describe('variables and scopes', () => {
  it.each([['null'], ['[]'], ['[{"user":{"A":"b"}}]'], ['"user"'], ['1']])('variables %s → not an object', (variables) =>
    expect12002(withVariables(variables), `${P} - variables is not an object`),
  );
  it('variables {} → holds no scope', () => expect12002(withVariables('{}'), `${P} - variables holds no scope`));
  it.each([
    ['foo', '"foo"'],
    ['users', '"users"'],
    ['', '""'],
    ['__proto__', '"__proto__"'],
    ['constructor', '"constructor"'],
    ['user ', '"user "'],
    ['séssion', '"séssion"'],
    ['USERſERVICE', '"USERſERVICE"'],
  ])('scope %j → unknown', (name, quoted) =>
    expect12002(withVariables(`{${JSON.stringify(name)}:{"A":"b"}}`), `${P} - scope ${quoted} is not a valid scope`),
  );
  it('a scope repeated in another case', () => {
    expect12002(withVariables('{"session":{"A":"1"},"SESSION":{"B":"2"}}'), `${P} - scope "SESSION" is repeated`);
    expect12002(withVariables('{"User":{"A":"1"},"request":{"B":"2"},"user":{"C":"3"}}'), `${P} - scope "user" is repeated`);
  });
  it.each([['"x"'], ['[]'], ['null'], ['1'], ['[{"A":"b"}]']])('scope value %s → not an object', (value) =>
    expect12002(withVariables(`{"Session":${value}}`), `${P} - scope "Session" is not an object`),
  );
  it('an empty scope', () => expect12002(withVariables('{"request":{"A":"b"},"userservice":{}}'), `${P} - scope "userservice" holds no key`));
});

describe('keys', () => {
  it('length 0 or over 255', () => {
    expect12002(inUser('"":"x"'), `${P} - key "" in scope "user" is not 1 to 255 characters long`);
    expect12002(inUser(`"${long(256)}":"x"`), `${P} - key "${long(64)}..." in scope "user" is not 1 to 255 characters long`);
    expect(decodeInvokeServiceRequest(inUser(`"${long(255)}":"x"`)).ok).toBe(true);
  });
  it.each([
    ['a digit', 'NAME1', '"NAME1"'],
    ['a space', 'first name', '"first name"'],
    ['a letter outside A-Z', 'naïve', '"naïve"'],
    ['a slash', 'a/b', '"a/b"'],
    ['replacement patterns', '$&$1', '"$&$1"'],
    ['a quote', 'a"b', '"a\\"b"'],
    ['a control character', 'a\u0001', '"a\\u0001"'],
    ['an astral character', 'a😀', '"a😀"'],
  ])('a key with %s', (_, key, quoted) =>
    expect12002(inUser(`${JSON.stringify(key)}:"x"`), `${P} - key ${quoted} in scope "user" has a disallowed character`),
  );
  it('A-Z, a-z, _, - and . are allowed', () => {
    expect(decodeInvokeServiceRequest(inUser('"Az_-.":"x","_":"y","-":"z",".":"w"')).ok).toBe(true);
  });
  it('a key repeated in another case', () => {
    expect12002(inUser('"First_Name":"a","LAST":"b","first_name":"c"'), `${P} - key "first_name" in scope "user" is repeated`);
  });
  it('the same key in two scopes is fine', () => {
    expect(decodeInvokeServiceRequest(withVariables('{"user":{"NAME":"a"},"session":{"name":"b"}}')).ok).toBe(true);
  });
  it.each([['NULL'], ['null'], ['True'], ['and'], ['Session']])('reserved word %s (default list)', (key) =>
    expect12002(inUser(`"${key}":"x"`), `${P} - key "${key}" in scope "user" is a reserved word`),
  );
  it.each([['PHONE_NUMBER'], ['phone_number'], ['Service_Id']])('built-in variable %s (default list)', (key) =>
    expect12002(inUser(`"${key}":"x"`), `${P} - key "${key}" in scope "user" names a built-in variable`),
  );
});

describe('values', () => {
  it.each([['1'], ['null'], ['true'], ['{}'], ['["a"]']])('value %s → not a string', (value) =>
    expect12002(inUser(`"NAME":${value}`), `${P} - value of key "NAME" in scope "user" is not a string`),
  );
  it('4096 characters pass, 4097 do not', () => {
    expect(decodeInvokeServiceRequest(inUser(`"NAME":"${long(4096)}"`)).ok).toBe(true);
    expect12002(inUser(`"NAME":"${long(4097)}"`), `${P} - value of key "NAME" in scope "user" exceeds 4096 characters`);
  });
  it.each([
    ['raw', '😀'],
    ['escaped', '\\ud83d\\ude00'],
  ])('a character outside the BMP (%s)', (_, text) =>
    expect12002(inUser(`"NAME":"ok ${text}"`), `${P} - value of key "NAME" in scope "user" has a character outside the Basic Multilingual Plane`),
  );
  it.each([
    ['a lone high surrogate', '\\ud800'],
    ['a lone low surrogate', '\\udc00x'],
    ['a reversed pair', '\\ude00\\ud83d'],
    ['NUL', '\\u0000'],
    ['unit separator', '\\u001f'],
    ['vertical tab', '\\u000b'],
    ['form feed', '\\f'],
    ['backspace', '\\b'],
  ])('%s is a disallowed character', (_, text) =>
    expect12002(inUser(`"NAME":"a${text}"`), `${P} - value of key "NAME" in scope "user" has a disallowed character`),
  );
  it('tab, line feed, carriage return, DEL and the rest of the BMP are allowed', () => {
    const result = decodeInvokeServiceRequest(inUser('"NAME":"\\t\\n\\r\\u007f\\u0080\\ud7ff\\ue000\\ufffe\\uffff"'));
    expect(result).toEqual({ ok: true, value: { endUser: { phoneNumber: '14155550100' }, variables: { user: { NAME: '\t\n\r\u007f\u0080\ud7ff\ue000\ufffe\uffff' } } } });
  });
});

describe('order when several rules are broken', () => {
  it('endUser before variables', () => {
    expect12002('{"variables":{},"endUser":{"phoneNumber":1}}', `${P} - endUser.phoneNumber is not an integer of 6 to 16 digits`);
  });
  it('phoneNumber before mobileOperatorId', () => {
    expect12002('{"endUser":{"mobileOperatorId":-1,"phoneNumber":"x"}}', `${P} - endUser.phoneNumber is not an integer of 6 to 16 digits`);
  });
  it('scopes in member order', () => {
    expect12002(withVariables('{"user":{"1":"x"},"nope":{}}'), `${P} - key "1" in scope "user" has a disallowed character`);
    expect12002(withVariables('{"nope":{},"user":{"1":"x"}}'), `${P} - scope "nope" is not a valid scope`);
  });
  it('key by key: every rule of a key before the next key', () => {
    expect12002(inUser('"NAME":1,"bad key":"x"'), `${P} - value of key "NAME" in scope "user" is not a string`);
    expect12002(inUser('"NULL":"a","null":"b"'), `${P} - key "NULL" in scope "user" is a reserved word`);
  });
  it('length before characters, characters before anything else', () => {
    expect12002(inUser(`"${long(300, '#')}":1`), `${P} - key "${long(64, '#')}..." in scope "user" is not 1 to 255 characters long`);
    expect12002(inUser('"a b":1'), `${P} - key "a b" in scope "user" has a disallowed character`);
  });
  it('reserved word before built-in variable', () => {
    const body = inUser('"Both":"x"');
    expect(decodeInvokeServiceRequest(body, { reservedWords: ['BOTH'], builtInVariables: ['both'] })).toEqual({
      ok: false,
      error: { code: 12002, description: `${P} - key "Both" in scope "user" is a reserved word` },
    });
  });
  it('value type before length before characters', () => {
    expect12002(inUser(`"NAME":"${long(4097)}\\u0000"`), `${P} - value of key "NAME" in scope "user" exceeds 4096 characters`);
    expect12002(inUser('"NAME":"a\\u0000😀"'), `${P} - value of key "NAME" in scope "user" has a disallowed character`);
    expect12002(inUser('"NAME":"a😀\\u0000"'), `${P} - value of key "NAME" in scope "user" has a character outside the Basic Multilingual Plane`);
  });
});

describe('reserved words and built-in variables options', () => {
  it('the defaults are frozen lists', () => {
    expect(Object.isFrozen(DEFAULT_RESERVED_WORDS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_BUILT_IN_VARIABLES)).toBe(true);
    expect(DEFAULT_RESERVED_WORDS).toContain('NULL');
    expect(DEFAULT_BUILT_IN_VARIABLES).toContain('PHONE_NUMBER');
  });
  it('a list replaces the default and compares case-insensitively', () => {
    const options = { reservedWords: ['order.Id'], builtInVariables: ['Loyalty-Tier'] };
    expect(decodeInvokeServiceRequest(inUser('"NULL":"x","PHONE_NUMBER":"y"'), options).ok).toBe(true);
    expect(decodeInvokeServiceRequest(inUser('"ORDER.ID":"x"'), options)).toEqual({
      ok: false,
      error: { code: 12002, description: `${P} - key "ORDER.ID" in scope "user" is a reserved word` },
    });
    expect(decodeInvokeServiceRequest(inUser('"loyalty-tier":"x"'), options)).toEqual({
      ok: false,
      error: { code: 12002, description: `${P} - key "loyalty-tier" in scope "user" names a built-in variable` },
    });
  });
  it('empty lists forbid nothing', () => {
    expect(decodeInvokeServiceRequest(inUser('"NULL":"x","PHONE_NUMBER":"y"'), { reservedWords: [], builtInVariables: [] }).ok).toBe(true);
  });
  it('a list that is not an array of strings is a TypeError', () => {
    expect(() => decodeInvokeServiceRequest(inUser('"A":"x"'), { reservedWords: 'NULL' as unknown as string[] })).toThrow(TypeError);
    expect(() => validateInvokeServiceRequest({}, { builtInVariables: [1] as unknown as string[] })).toThrow(TypeError);
  });
});

describe('validateInvokeServiceRequest (already-parsed body)', () => {
  it('agrees with the decoder on a parsed body', () => {
    const text = withVariables('{"Session":{"step":"2"},"user":{"NAME":"Ana"}}');
    expect(validateInvokeServiceRequest(JSON.parse(text))).toEqual(decodeInvokeServiceRequest(text));
  });
  it('applies the same rules', () => {
    expect(validateInvokeServiceRequest(JSON.parse(inUser('"null":"x"')))).toEqual({
      ok: false,
      error: { code: 12002, description: `${P} - key "null" in scope "user" is a reserved word` },
    });
    expect(validateInvokeServiceRequest({ endUser: { phoneNumber: '14155550100' } })).toEqual({
      ok: false,
      error: { code: 12002, description: `${P} - endUser.phoneNumber is not an integer of 6 to 16 digits` },
    });
  });
  it('takes a bigint phone number from parsers that keep large integers', () => {
    expect(validateInvokeServiceRequest({ endUser: { phoneNumber: 9123456789012345n, mobileOperatorId: 383n } })).toEqual({
      ok: true,
      value: { endUser: { phoneNumber: '9123456789012345', mobileOperatorId: 383 } },
    });
    expect(validateInvokeServiceRequest({ endUser: { phoneNumber: -9123456789012345n } }).ok).toBe(false);
  });
  it('refuses a number whose digits were lost beyond 2^53, and negative zero', () => {
    expect(validateInvokeServiceRequest({ endUser: { phoneNumber: 9123456789012345 } }).ok).toBe(false);
    expect(validateInvokeServiceRequest({ endUser: { phoneNumber: 9007199254740991 } })).toEqual({
      ok: true,
      value: { endUser: { phoneNumber: '9007199254740991' } },
    });
    expect(validateInvokeServiceRequest({ endUser: { phoneNumber: 14155550100, mobileOperatorId: -0 } }).ok).toBe(false);
  });
  it.each([[null], [[]], ['{}'], [42]])('%j → not an object', (value) => {
    expect(validateInvokeServiceRequest(value)).toEqual({ ok: false, error: { code: 12002, description: `${P} - body is not a JSON object` } });
  });
});
