// The reference pages hold every entry of the tables they are generated from: every error code with
// its exact description and HTTP status, every 540 rule, every telemetry name, every CLI command,
// argument and option, the wire facts. Reads what `scripts/generate.mjs` wrote (the test script
// builds the site first) and the built pages.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '@smsv4/core';
import { createProgram } from 'smsv4';
import { describe, expect, it } from 'vitest';
import { DOCS_ROOT } from './code-blocks.js';

const page = (name: string) => readFileSync(join(DOCS_ROOT, 'reference', `${name}.md`), 'utf8');
/** The cells of a page's table rows, as written (code spans unwrapped, escapes undone). */
const rows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('|---'))
    .map((line) =>
      line
        .slice(2, -2)
        .split(/ (?<!\\)\| /)
        .map((cell) => cell.trim().replaceAll('\\|', '|').replaceAll('&lt;', '<').replaceAll('&#123;', '{').replace(/^`(.*)`$/, '$1')),
    );
const hasRow = (table: string[][], ...cells: string[]) => table.some((row) => cells.every((cell, i) => row[i] === cell));

/** The smsv4 program with every command configured (commands set up their options when first run). */
async function configuredProgram() {
  const sink = { write: () => true, isTTY: false };
  const program = createProgram({ stdout: sink, stderr: sink, stdin: undefined, env: {}, cwd: DOCS_ROOT } as unknown as Parameters<typeof createProgram>[0]);
  for (const command of program.commands.filter((c) => c.name() !== 'help')) {
    try {
      await program.parseAsync([command.name(), '--help'], { from: 'user' });
    } catch {
      // commander ends a help display by throwing (exitOverride); the command is now configured.
    }
  }
  return program;
}

describe('reference pages', () => {
  it('error codes: every code of the catalogue with its exact description and HTTP status', () => {
    const table = rows(page('errors'));
    const missing: string[] = [];
    for (const entry of [...Object.values(core.SMS_ERRORS), ...Object.values(core.INVOKE_ERRORS)]) {
      if (!hasRow(table, String(entry.code), entry.description, String(entry.httpStatus))) missing.push(`${entry.code} ${entry.description}`);
    }
    for (const state of Object.values(core.DELIVERY_STATES).filter((s) => s !== undefined)) {
      if (!hasRow(table, String(state.code), state.description)) missing.push(`state ${state.code}`);
    }
    for (const [rule, description] of [...Object.entries(core.INVOKE_INVALID), ...Object.entries(core.PAYLOAD_INVALID)]) {
      if (!hasRow(table, rule, description)) missing.push(rule);
    }
    expect(missing).toEqual([]);
  });

  it('the 540 rules: every rule with its exact description, every limit', () => {
    const table = rows(page('rules-540'));
    expect(Object.entries(core.MT_INVALID).filter(([rule, description]) => !hasRow(table, rule, description))).toEqual([]);
    expect(Object.entries(core.MT_LIMITS).filter(([limit, value]) => !hasRow(table, limit, String(value)))).toEqual([]);
  });

  it('telemetry names: every span, metric and attribute', () => {
    const table = rows(page('telemetry'));
    expect(Object.values(core.TELEMETRY_SPANS).filter((name) => !table.some((row) => row[1] === name))).toEqual([]);
    expect(Object.values(core.TELEMETRY_ATTRIBUTES).filter((name) => !table.some((row) => row[1] === name))).toEqual([]);
    expect(Object.values(core.TELEMETRY_METRICS).filter((m) => !hasRow(table, m.name, m.instrument, m.unit, m.description))).toEqual([]);
  });

  it('CLI commands: every command, argument and option of the program, with its description', async () => {
    const text = page('cli');
    const program = await configuredProgram();
    expect(program.commands.flatMap((c) => c.options).length).toBeGreaterThan(50);
    const table = rows(text);
    const missing: string[] = [];
    for (const option of program.options.filter((o) => !o.hidden)) if (!table.some((row) => row[0] === option.flags)) missing.push(option.flags);
    for (const command of program.commands.filter((c) => c.name() !== 'help')) {
      if (!text.includes(`## \`smsv4 ${command.name()}\``)) missing.push(command.name());
      const section = text.split(`## \`smsv4 ${command.name()}\``)[1]?.split('\n## ')[0] ?? '';
      const own = rows(section);
      for (const argument of command.registeredArguments) if (!own.some((row) => row[0] === argument.name())) missing.push(`${command.name()} ${argument.name()}`);
      for (const option of command.options.filter((o) => !o.hidden)) {
        if (!own.some((row) => row[0] === option.flags && row[1]!.startsWith(option.description))) missing.push(`${command.name()} ${option.flags}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every smsv4 option the CLI's guides name, and every one in a guide's table, is an option of the program (no renamed or removed flag documented)", async () => {
    const program = await configuredProgram();
    const known = new Set([...program.options, ...program.commands.flatMap((c) => c.options)].flatMap((o) => [o.long, o.short, o.negate ? o.long : undefined]).filter(Boolean));
    // `--progress` / `--no-progress` are one option of commander's pair.
    for (const o of program.commands.flatMap((c) => c.options)) if (o.long?.startsWith('--no-')) known.add(`--${o.long.slice(5)}`);
    // The CLI's own pages name flags anywhere; the other guides, in the first column of a table.
    const cliPages = new Set(['send-cli.md', 'contract-checks.md']);
    const named = readdirSync(join(DOCS_ROOT, 'guide')).flatMap((file) =>
      readFileSync(join(DOCS_ROOT, 'guide', file), 'utf8')
        .split('\n')
        .filter((line) => cliPages.has(file) || line.startsWith('| `--'))
        .flatMap((line) => [...(cliPages.has(file) ? line : line.split(' | ')[0]!).matchAll(/`(--[a-z0-9-]+)/g)].map((m) => `${file}: ${m[1]}`)),
    );
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((entry) => !known.has(entry.split(': ')[1]!))).toEqual([]);
  });

  it('wire facts: the hosts of every operation and every receiver rejection with its status', () => {
    const table = rows(page('wire-facts'));
    const hosts = Object.entries(core.PRODUCTION_URLS).filter(([op, url]) => !hasRow(table, op, url, core.TEST_ENVIRONMENT_URLS[op as keyof typeof core.TEST_ENVIRONMENT_URLS]));
    expect(hosts).toEqual([]);
    const rejections = Object.entries(core.WEBHOOK_REJECTIONS).filter(([code, entry]) => !hasRow(table, code, String(entry.status)));
    expect(rejections).toEqual([]);
    expect(table.some((row) => row[1] === core.TICKET_ID_PATTERN.toString() || row[1] === String(core.TICKET_ID_PATTERN))).toBe(true);
  });

  it("the receive guide's answers table shows every rejection of core's table, with its status and body", () => {
    const guide = readFileSync(join(DOCS_ROOT, 'guide/receive.md'), 'utf8');
    const section = guide.slice(guide.indexOf('## What it answers'));
    const table = rows(section.slice(0, section.indexOf('\n\n', section.indexOf('| # |'))));
    const missing = Object.entries(core.WEBHOOK_REJECTIONS).filter(([, entry]) => {
      // `{maxBytes}`: the row shows the default; `Malformed payload` rows add the reason after a colon.
      const body = new RegExp(`^${entry.description.replace(/[.*+?^$()[\]\\|]/g, '\\$&').replace(/\{\w+\}/g, '.+')}(: .+)?$`);
      return !table.some((row) => row[2]!.startsWith(String(entry.status)) && body.test(row[3]!));
    });
    expect(missing.map(([code]) => code)).toEqual([]);
  });

  it("the payloads guide's 540 table says what each rule of core checks, once each, and leaves the descriptions to the reference page", () => {
    const guide = readFileSync(join(DOCS_ROOT, 'guide/payloads.md'), 'utf8');
    const section = guide.slice(guide.indexOf('### The 540 rules'));
    const table = rows(section.slice(0, section.indexOf('\n\n', section.indexOf('| `rule` |')))).slice(1);
    const listed = table.flatMap(([rules]) => rules!.split(' / ').map((r) => r.replace(/^`|`$/g, '')));
    expect(listed.filter((rule, i) => listed.indexOf(rule) !== i)).toEqual([]);
    expect(listed.filter((rule) => !(rule in core.MT_INVALID))).toEqual([]);
    expect(Object.keys(core.MT_INVALID).filter((rule) => !listed.includes(rule))).toEqual([]);
    // The descriptions have one home: the generated page (written twice, they would drift).
    expect(Object.values(core.MT_INVALID).filter((description) => section.slice(0, section.indexOf('\n\n', section.indexOf('| `rule` |'))).includes(description))).toEqual([]);
    expect(section).toContain('(/reference/rules-540)');
  });

  it('each reference page is built into the site', () => {
    for (const name of ['errors', 'rules-540', 'telemetry', 'cli', 'wire-facts']) {
      expect(existsSync(join(DOCS_ROOT, '.vitepress/dist/reference', `${name}.html`)), name).toBe(true);
    }
  });
});
