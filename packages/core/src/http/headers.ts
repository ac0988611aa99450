/**
 * Headers as runtimes hand them over: a Web `Headers` (or anything with `get`), or a plain record
 * such as Node's `IncomingHttpHeaders` (names in any case, repeated values as arrays).
 */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

type HeaderRecord = Readonly<Record<string, string | readonly string[] | number | undefined>>;

/** `name` in lower case: itself when it is already (no copy made for the names callers pass). */
const lowerCase = (name: string): string => {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return name.toLowerCase();
  }
  return name;
};

const recordValue = (value: HeaderRecord[string]): string | undefined => (value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value));

/**
 * One header's value (repeated values joined by `, `), or `undefined` when absent. In a record, the
 * name in lower case (as Node and the frameworks on it write every name) is read directly; other
 * spellings are looked for only when it is absent.
 */
export function headerValue(headers: HeadersLike | undefined, name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as HeaderRecord;
  const wanted = lowerCase(name);
  if (Object.hasOwn(record, wanted)) return recordValue(record[wanted]);
  for (const key in record) {
    if (key.length === wanted.length && key.toLowerCase() === wanted && Object.hasOwn(record, key)) return recordValue(record[key]);
  }
  return undefined;
}
