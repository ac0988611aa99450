import { INVOKE_ERRORS, INVOKE_INVALID, type InvokeInvalidRule } from '../errors/catalogue.js';

/** Why an Invoke Service request body was refused: 12002 (a rule of the body) or 12007 (too large). */
export interface InvokeRequestError {
  readonly code: 12002 | 12007;
  readonly description: string;
}

/** Why an Invoke Service request line (method and URL) was refused. */
export interface InvokeRequestLineError {
  readonly code: 12003 | 12004 | 12005 | 12006;
  readonly description: string;
}

/** The scope and key a 12002 description names. */
export interface InvokeInvalidNames {
  /** The scope at fault, as written in the request. */
  readonly scope?: string;
  /** The key at fault, as written in the request. */
  readonly key?: string;
}

const NAME_SHOWN_LENGTH = 64;
const PLACEHOLDER = /\{(scope|key)\}/g;

/** A name as a description shows it: a JSON string, cut to 64 characters followed by `...`. */
function quoteName(name: string | undefined): string {
  const shown = name === undefined ? '' : name.length > NAME_SHOWN_LENGTH ? `${name.slice(0, NAME_SHOWN_LENGTH)}...` : name;
  return JSON.stringify(shown);
}

/**
 * The 12002 error of a rule of {@link INVOKE_INVALID}, its `{scope}` and `{key}` filled with the
 * names at fault (JSON-quoted, so quotes and control characters in a name stay visible and inert).
 */
export function invokeInvalidError(rule: InvokeInvalidRule, names: InvokeInvalidNames = {}): InvokeRequestError {
  const template: string = INVOKE_INVALID[rule];
  const description = template.includes('{')
    ? template.replace(PLACEHOLDER, (_, which: 'scope' | 'key') => quoteName(names[which]))
    : template;
  return { code: 12002, description };
}

/** The 12007 error: body over {@link INVOKE_MAX_BODY_BYTES} UTF-8 bytes. */
export const INVOKE_TOO_LARGE_ERROR: InvokeRequestError = Object.freeze({ code: 12007, description: INVOKE_ERRORS[12007].description });

/** The request-line error of one of its codes, with the catalogue's description. */
export function invokeRequestLineError(code: InvokeRequestLineError['code']): InvokeRequestLineError {
  return { code, description: INVOKE_ERRORS[code].description };
}
