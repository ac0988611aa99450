/**
 * Newline-delimited JSON (`.ndjson`, `.jsonl`, or `--input-format ndjson`): one payload per line,
 * each validated on its own. Split on the bytes (a line feed never occurs inside a UTF-8 sequence),
 * so that each record keeps its bytes as they are, invalid UTF-8 included. Blank lines are skipped;
 * a line's `\r` before its `\n` is dropped.
 */

/** One line of an NDJSON input. */
export interface NdjsonRecord {
  /** 1-based line number in the input. */
  readonly line: number;
  readonly bytes: Uint8Array;
}

/** The extensions read as NDJSON. */
export const NDJSON_EXTENSIONS: readonly string[] = ['.ndjson', '.jsonl'];

/** Whether a path names an NDJSON file (by its extension, in any case). */
export const isNdjsonPath = (path: string): boolean => NDJSON_EXTENSIONS.some((ext) => path.toLowerCase().endsWith(ext));

const isBlank = (bytes: Uint8Array): boolean => bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d);

/**
 * The non-blank lines of `bytes`, in order, with their line numbers. Linear in the input's length.
 *
 * @example
 * ndjsonRecords(new TextEncoder().encode('{"a":1}\n\n{"b":2}\n')).map((r) => r.line); // [1, 3]
 */
export function ndjsonRecords(bytes: Uint8Array): NdjsonRecord[] {
  const records: NdjsonRecord[] = [];
  let line = 0;
  let start = 0;
  while (start <= bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    line += 1;
    const record = bytes.subarray(start, stop > start && bytes[stop - 1] === 0x0d ? stop - 1 : stop);
    if (!isBlank(record)) records.push({ line, bytes: record });
    if (end === -1) break;
    start = end + 1;
  }
  return records;
}
