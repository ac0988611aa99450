/**
 * Headers as runtimes hand them over: a Web `Headers` (or anything with `get`), or a plain record
 * such as Node's `IncomingHttpHeaders` (names in any case, repeated values as arrays).
 */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/** One header's value (repeated values joined by `, `), or `undefined` when absent. */
export function headerValue(headers: HeadersLike | undefined, name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | number | undefined>>;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = record[key];
    if (value === undefined) return undefined;
    return Array.isArray(value) ? value.join(', ') : String(value);
  }
  return undefined;
}
