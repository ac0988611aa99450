/**
 * Default lists of the words a variable key must not be. The spec forbids reserved words and the
 * names of built-in variables but publishes neither list, so these are plausible defaults for an
 * engagement platform, not the service's own lists: replace them with your account's real lists
 * through the `reservedWords` and `builtInVariables` options. Both are compared case-insensitively.
 */

/**
 * Default reserved words: the keywords and literals of the template and expression language that
 * reads the variables (logical operators, literals, conditionals) and the scope names, which
 * expressions use as prefixes. A placeholder for the account's real list.
 */
export const DEFAULT_RESERVED_WORDS: readonly string[] = Object.freeze([
  'AND',
  'OR',
  'NOT',
  'XOR',
  'IN',
  'IS',
  'LIKE',
  'BETWEEN',
  'NULL',
  'TRUE',
  'FALSE',
  'EMPTY',
  'UNDEFINED',
  'IF',
  'THEN',
  'ELSE',
  'ELSEIF',
  'END',
  'CASE',
  'WHEN',
  'FOR',
  'EACH',
  'RETURN',
  'REQUEST',
  'SESSION',
  'USER',
  'USERSERVICE',
  'USERSERVICECOLL',
]);

/**
 * Default built-in variables: values the platform sets itself for every invocation (the end user,
 * the service, the session and the message being handled); only custom variables may be set by a
 * request. A placeholder for the account's real list.
 */
export const DEFAULT_BUILT_IN_VARIABLES: readonly string[] = Object.freeze([
  'PHONE_NUMBER',
  'MOBILE_OPERATOR_ID',
  'COUNTRY_CODE',
  'ACCOUNT_ID',
  'SERVICE_ID',
  'SERVICE_NAME',
  'SESSION_ID',
  'REQUEST_ID',
  'USER_ID',
  'SHORT_CODE',
  'KEYWORD',
  'MESSAGE_TEXT',
  'MESSAGE_ID',
  'TICKET_ID',
  'LANGUAGE',
  'TIMESTAMP',
]);
