/** Checks of factories' options, one message for each kind of mistake. */

/** Throws a `TypeError` naming the first member of `options` that is not a positive integer (`maxPending must be a positive integer, got 0`). */
export function checkPositiveIntegers(options: Readonly<Record<string, unknown>>): void {
  for (const [name, value] of Object.entries(options)) {
    if (!Number.isSafeInteger(value) || (value as number) < 1) throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}

/** Throws a `TypeError` naming the first member of `options` that is not a positive number (`ttlMs must be a positive number, got 0`). */
export function checkPositiveNumbers(options: Readonly<Record<string, unknown>>): void {
  for (const [name, value] of Object.entries(options)) {
    if (!(typeof value === 'number' && value > 0)) throw new TypeError(`${name} must be a positive number, got ${String(value)}`);
  }
}

/** Throws a `TypeError` naming the first member of `options` that is not a function (`now must be a function`); with `optional`, `undefined` passes. */
export function checkFunctions(options: Readonly<Record<string, unknown>>, optional = false): void {
  for (const [name, value] of Object.entries(options)) {
    if (typeof value !== 'function' && !(optional && value === undefined)) throw new TypeError(`${name} must be a function`);
  }
}

/** Throws a `TypeError` unless `sendCommand` is a function (what the Redis stores send their commands through). */
export function checkSendCommand(sendCommand: unknown): void {
  if (typeof sendCommand !== 'function') throw new TypeError('sendCommand must be a function that sends one Redis command');
}

/** Throws a `TypeError` naming the first member of `options` that is not a whole number from 0 (`maxTickets must be a non-negative integer`). */
export function checkNonNegativeIntegers(options: Readonly<Record<string, unknown>>): void {
  for (const [name, value] of Object.entries(options)) {
    if (!Number.isSafeInteger(value) || (value as number) < 0) throw new TypeError(`${name} must be a non-negative integer`);
  }
}

/** Throws a `TypeError` naming the first member of `options` that is not a string (`keyPrefix must be a string`). */
export function checkStrings(options: Readonly<Record<string, unknown>>): void {
  for (const [name, value] of Object.entries(options)) if (typeof value !== 'string') throw new TypeError(`${name} must be a string`);
}
