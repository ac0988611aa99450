/**
 * The verdicts of `smsv4 validate` as a report: the summary, and JUnit XML, which CI systems
 * (GitHub Actions' test reporters, GitLab, Jenkins, Azure Pipelines) read to show each failing payload.
 */
import type { ValidationResult } from './validate-payload.js';

/** The counts of a run. */
export interface ValidationSummary {
  /** Payloads validated (an NDJSON file counts one per record). */
  readonly files: number;
  readonly valid: number;
  readonly invalid: number;
  /** Inputs that could not be read (counted in `invalid` too). */
  readonly unreadable: number;
}

/** Counts the verdicts. */
export function summarize(results: readonly ValidationResult[]): ValidationSummary {
  const invalid = results.filter((result) => !result.valid).length;
  const unreadable = results.filter((result) => result.error?.code === 'unreadable').length;
  return { files: results.length, valid: results.length - invalid, invalid, unreadable };
}

/** Where a syntax error is, in words (`line 2, column 6: ':' expected`), or `''`. */
export function syntaxAt(result: ValidationResult): string {
  const error = result.error;
  if (error?.line === undefined || error.column === undefined) return '';
  return `line ${error.line}, column ${error.column}${error.syntax === undefined ? '' : `: ${error.syntax}`}`;
}

// XML 1.0 has no place for most control characters, even escaped: they become U+FFFD.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (text: string): string => text.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/**
 * The verdicts as JUnit XML: one test case per payload (named by its path, `file:line` for an
 * NDJSON record, classed by its resource), a `<failure>` for an invalid payload, an `<error>` for an
 * input that could not be read.
 *
 * @example
 * formatJunit([{ source: 'mt.json', resource: 'mt-request', format: 'json', valid: true }]);
 */
export function formatJunit(results: readonly ValidationResult[]): string {
  const summary = summarize(results);
  const failures = summary.invalid - summary.unreadable;
  const counts = `tests="${summary.files}" failures="${failures}" errors="${summary.unreadable}"`;
  const cases = results.map((result) => {
    const open = `    <testcase name="${xml(result.source)}" classname="${xml(result.resource ?? 'unknown')}"`;
    if (result.valid || result.error === undefined) return `${open}/>`;
    const { code, description, path, rule } = result.error;
    const where = [syntaxAt(result), path === undefined ? '' : `at ${path}`, rule === undefined ? '' : `rule ${rule}`].filter((part) => part !== '').join('; ');
    const tag = code === 'unreadable' ? 'error' : 'failure';
    const body = `${code} ${description}${where === '' ? '' : ` (${where})`}`;
    return `${open}>\n      <${tag} type="${xml(String(code))}" message="${xml(description)}">${xml(body)}</${tag}>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="smsv4 validate" ${counts}>`,
    `  <testsuite name="smsv4 validate" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
