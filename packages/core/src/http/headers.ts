/**
 * Headers as runtimes hand them over: a Web `Headers` (or anything with `get`), or a plain record
 * such as Node's `IncomingHttpHeaders` (names in any case, repeated values as arrays).
 */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/**
 * Several headers' values, in the order of `names` (lower case), read in one pass over a record:
 * for each name, the first member whose name matches it in any case (one present with the value
 * `undefined` counts, as absent), repeated values joined by `, `; through `get` for a `Headers`.
 */
export function headerValues(headers: HeadersLike | undefined, names: readonly string[]): (string | undefined)[] {
  const values: (string | undefined)[] = names.map(() => undefined);
  if (headers === undefined || headers === null) return values;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    names.forEach((name, i) => (values[i] = (headers as { get(name: string): string | null }).get(name) ?? undefined));
    return values;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | number | undefined>>;
  const found: boolean[] = [];
  for (const key of Object.keys(record)) {
    const at = names.indexOf(key.toLowerCase());
    if (at === -1 || found[at] === true) continue;
    found[at] = true;
    const value = record[key];
    values[at] = value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);
  }
  return values;
}

/** One header's value (repeated values joined by `, `), or `undefined` when absent. */
export function headerValue(headers: HeadersLike | undefined, name: string): string | undefined {
  if (headers !== undefined && headers !== null && typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  return headerValues(headers, [name.toLowerCase()])[0];
}
