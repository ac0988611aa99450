/**
 * Where a JSON document stops being JSON: line, column and what was expected there, the same on
 * every Node version (V8's own messages carry a position only for some errors). jsonc-parser, in
 * strict mode (no comments, no trailing commas), finds the first error.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** The first syntax error of a JSON text. */
export interface JsonSyntaxError {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in characters (UTF-16 code units) from the start of the line. */
  readonly column: number;
  /** What is wrong there, in words. */
  readonly problem: string;
}

const PROBLEMS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a member name in double quotes expected',
  ValueExpected: 'a value expected',
  ColonExpected: "':' expected",
  CommaExpected: "',' expected",
  CloseBraceExpected: "',' or '}' expected",
  CloseBracketExpected: "',' or ']' expected",
  EndOfFileExpected: 'nothing expected after the document',
  InvalidCommentToken: 'comments are not JSON',
  UnexpectedEndOfComment: 'comments are not JSON',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape',
  InvalidCharacter: 'control character in a string (escape it)',
};

/** Line and column (both 1-based) of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * The first syntax error of `text` as JSON, or `undefined` when it is JSON. Linear in the text's
 * length.
 *
 * @example
 * jsonSyntaxError('{"a":1,\n "b" 2}'); // { line: 2, column: 6, problem: "':' expected" }
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    // located below
  }
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) {
    // Something JSON.parse refuses and the scanner takes (a lone surrogate is fine for both):
    // the whole document is at fault.
    return { line: 1, column: 1, problem: 'not valid JSON' };
  }
  return { ...lineAndColumn(text, first.offset), problem: PROBLEMS[printParseErrorCode(first.error)] ?? 'not valid JSON' };
}
