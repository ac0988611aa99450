import { describe, expect, it } from 'vitest';
import { endUserNumberLiterals } from './end-user-literals.js';

/** The literals as the decoder asks for them: with the parsed values of the two members. */
function literals(text: string) {
  const endUser = (JSON.parse(text) as { endUser?: { phoneNumber?: unknown; mobileOperatorId?: unknown } }).endUser;
  return endUserNumberLiterals(text, endUser?.phoneNumber, endUser?.mobileOperatorId);
}

describe('endUserNumberLiterals', () => {
  it.each([
    // the compact leading form, confirmed against the parsed values
    ['{"endUser":{"phoneNumber":14155550100}}', { phoneNumber: '14155550100' }],
    ['{"endUser":{"phoneNumber":14155550100,"mobileOperatorId":383},"variables":{}}', { phoneNumber: '14155550100', mobileOperatorId: '383' }],
    ['{"endUser":{"phoneNumber":14155550100,"x":1,"mobileOperatorId":383}}', { phoneNumber: '14155550100', mobileOperatorId: '383' }],
    // leading forms JavaScript would not write: the text decides
    ['{"endUser":{"phoneNumber":9123456789012345}}', { phoneNumber: '9123456789012345' }],
    ['{"endUser":{"phoneNumber":1e6}}', { phoneNumber: '1e6' }],
    ['{"endUser":{"phoneNumber":1000000.0}}', { phoneNumber: '1000000.0' }],
    ['{"endUser":{"phoneNumber":1.50}}', { phoneNumber: '1.50' }],
    ['{"endUser":{"phoneNumber":-0}}', { phoneNumber: '-0' }],
    ['{"endUser":{"phoneNumber":123456,"mobileOperatorId":-0}}', { phoneNumber: '123456', mobileOperatorId: '-0' }],
    ['{"endUser":{"phoneNumber":123456,"mobileOperatorId":3.0E2}}', { phoneNumber: '123456', mobileOperatorId: '3.0E2' }],
    // other layouts
    ['{ "endUser" : { "mobileOperatorId" : 383 , "phoneNumber" : 1e6 } }', { phoneNumber: '1e6', mobileOperatorId: '383' }],
    ['{"endUser":{"phoneNumber":-0.5E+3}}', { phoneNumber: '-0.5E+3' }],
    ['{"variables":{"user":{"endUser":"x"}},"endUser":{"phoneNumber":123456}}', { phoneNumber: '123456' }],
    ['{"a":{"endUser":{"phoneNumber":1}},"endUser":{"phoneNumber":123456}}', { phoneNumber: '123456' }],
    ['{"endUser":{"x":{"phoneNumber":1},"phoneNumber":123456}}', { phoneNumber: '123456' }],
    ['{"endUser":{"phoneNumber":123456},"variables":{"user":{"phoneNumber":"x"}}}', { phoneNumber: '123456' }],
    // a backslash anywhere: the structural scan
    ['{"s":"\\"endUser\\":{\\"phoneNumber\\":1}","endUser":{"phoneNumber":123456}}', { phoneNumber: '123456' }],
    ['{"s":"\\\\","endUser":{"phone\\u004eumber":123456}}', { phoneNumber: '123456' }],
    ['{"s":"\\n","endUser":{"phoneNumber":123456,"mobileOperatorId":7}}', { phoneNumber: '123456', mobileOperatorId: '7' }],
    ['{"s":"\\n","endUser":[{"phoneNumber":123456}]}', {}],
    ['{"s":"\\n","endUser":{},"phoneNumber":123456}', {}],
  ])('%s', (text, expected) => {
    expect(literals(text)).toEqual(expected);
  });
});
