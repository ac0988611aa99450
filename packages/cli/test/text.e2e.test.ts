// `smsv4 segments`, `explain` and `lint` end to end on the core's text fixtures and the CLI's
// templates, each figure compared with core's estimator.
import { estimateSegments, explain } from '@smsv4/core';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LintResult } from '../src/index.js';
import { cliFixture, coreFixture } from './fixtures.js';
import { smsv4 } from './helpers.js';

const text = (name: string): string => readFileSync(coreFixture(`text/${name}`), 'utf8').replace(/\n$/, '');

describe('smsv4 segments', () => {
  it('prints encoding, parts, units left and what forces UCS-2, as core estimates them', async () => {
    const content = text('promo-typography.txt');
    const expected = explain(content);
    const run = await smsv4(['segments', '--file', coreFixture('text/promo-typography.txt')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Encoding\s+UCS-2/);
    expect(run.stdout).toMatch(new RegExp(`Parts\\s+${expected.estimate.segments} parts, 67 UTF-16 units each`));
    expect(run.stdout).toMatch(new RegExp(`Left\\s+${expected.estimate.unitsLeft} UTF-16 units in the last part`));
    expect(run.stdout).toContain('’ U+2019');
    expect(run.stdout).toContain(`saves ${expected.segmentsSaved} part`);
  });

  it('--json is core\'s explanation, and stdin works with -', async () => {
    const content = text('otp-en.txt');
    const run = await smsv4(['segments', '-', '--json'], { input: `${content}\n` });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(explain(content))));
  });

  it('applies operator limits, national tables and the 16-bit reference given by flag', async () => {
    const content = 'x'.repeat(300);
    const limited = await smsv4(['segments', content, '--json', '--text-length', '140', '--max-parts', '2', '--reference-bits', '16']);
    const expected = estimateSegments(content, { operator: { textLength: 140, maxParts: 2 }, referenceBits: 16 });
    const printed = JSON.parse(limited.stdout) as { estimate: typeof expected };
    expect(printed.estimate.segments).toBe(expected.segments);
    expect(printed.estimate.multipartCapacity).toBe(152 - 20);
    expect(printed.estimate.mlc.segment.accepted).toBe(false);
    const turkish = text('shipping-tr.txt');
    const national = await smsv4(['segments', '--file', coreFixture('text/shipping-tr.txt'), '--national', 'turkish']);
    expect(national.stdout).toMatch(/Encoding\s+GSM/);
    expect(national.stdout).toContain('turkish');
    expect(estimateSegments(turkish, { nationalLanguages: ['turkish'] }).encoding).toBe('GSM');
  });

  it('counts hex content in its charset, and refuses content that does not decode (exit 1)', async () => {
    const ok = await smsv4(['segments', '--type', 'hexEncodedText', '--charset', 'UTF-16', '00480069', '--json']);
    expect(JSON.parse(ok.stdout).estimate).toMatchObject({ encoding: 'UCS-2', units: 2, segments: 1 });
    const bad = await smsv4(['segments', '--type', 'hexEncodedText', '--charset', 'UTF-16', '0048006']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('not valid UTF-16 hex');
  });

  it('refuses bad usage with exit status 2', async () => {
    for (const args of [
      ['segments'],
      ['segments', 'hi', '--file', 'x.txt'],
      ['segments', '--type', 'hexEncodedText', '0048'],
      ['segments', 'hi', '--national', 'klingon'],
      ['segments', 'hi', '--text-length', '0'],
      ['segments', 'hi', '--reference-bits', '12'],
      ['segments', '--file', cliFixture('templates/missing.txt')],
    ]) {
      const run = await smsv4(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/smsv4: /);
    }
  });
});

describe('smsv4 segments and explain with national languages', () => {
  const hindi = 'आपका OTP 482913 है। कृपया इसे किसी के साथ साझा न करें। यह कोड 10 मिनट में समाप्त हो जाएगा। धन्यवाद';

  it('print the table choice and what each enabled language alone would cost, as core explains them', async () => {
    const expected = explain(hindi, { nationalLanguages: ['bengali', 'hindi'] }).tables;
    for (const command of ['segments', 'explain']) {
      const run = await smsv4([command, hindi, '--national', 'bengali,hindi']);
      expect(run.code, command).toBe(0);
      expect(run.stdout, command).toContain(`\nTable choice     ${String(expected?.reason)}\n`);
      expect(run.stdout, command).toContain(
        '\nEach language    no national table: UCS-2, 2 parts · bengali: UCS-2, 2 parts, saves no part · hindi: GSM, 1 part, saves 1 part\n',
      );
    }
    const without = await smsv4(['segments', hindi]);
    expect(without.stdout).not.toContain('Table choice');
  });
});

describe('smsv4 explain', () => {
  it('lists every part, every substitution and the substituted text', async () => {
    const run = await smsv4(['explain', 'It’s “great” — isn’t it?']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Substituted text (GSM, 1 part)');
    expect(run.stdout).toContain(JSON.stringify(`It's "great" - isn't it?`));
    expect(run.stdout.match(/U\+2019 → "'"/g)?.length).toBeGreaterThanOrEqual(2);
  });
});

describe('smsv4 lint', () => {
  it('passes GSM templates within budget and fails the others, naming the characters and the fix (exit 1)', async () => {
    const run = await smsv4(['lint', '--json', coreFixture('text'), '--max-parts', '2']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { ok: boolean; summary: { passed: number; failed: number }; results: LintResult[] };
    const byName = (name: string): LintResult | undefined => report.results.find((result) => result.template.endsWith(name));
    expect(byName('otp-en.txt')?.ok).toBe(true);
    expect(byName('promo-typography.txt')?.problems.map((p) => p.code)).toContain('leaves-gsm');
    expect(byName('promo-emoji.txt')?.problems.map((p) => p.code)).toEqual(['leaves-gsm', 'over-budget']);
    for (const result of report.results) {
      if (result.encoding === undefined) continue;
      const name = result.template.split('/').pop() as string;
      expect(result.segments, name).toBe(estimateSegments(text(name)).segments);
    }
  });

  it('fills {{placeholders}} with --var and reads templates from a JSON file by key', async () => {
    const otp = await smsv4(['lint', cliFixture('templates/otp.txt'), '--var', 'code=123456']);
    expect(otp.code).toBe(0);
    expect(otp.stdout).toContain('✔ pass');
    const messages = await smsv4(['lint', cliFixture('templates/messages.json'), '--var', 'order=A-1234567']);
    expect(messages.code).toBe(1);
    expect(messages.stdout).toContain('messages.json#en.shipped');
    expect(messages.stdout).toMatch(/✖ fail\s+\S*messages\.json#tr\.shipped/);
    expect(messages.stdout).toContain('ş U+015F');
    const allowed = await smsv4(['lint', cliFixture('templates/messages.json'), '--allow-ucs2']);
    expect(allowed.code).toBe(0);
    const national = await smsv4(['lint', cliFixture('templates/messages.json'), '--national', 'turkish']);
    expect(national.code).toBe(0);
  });

  it('points at the substitutes that fix a template, and fails an unreadable file', async () => {
    const typography = await smsv4(['lint', cliFixture('templates/typography.txt')]);
    expect(typography.code).toBe(1);
    expect(typography.stdout).toContain('the GSM substitutes fix it');
    const broken = await smsv4(['lint', '--json', cliFixture('templates/broken.json')]);
    expect(broken.code).toBe(1);
    expect((JSON.parse(broken.stdout) as { results: LintResult[] }).results[0]?.problems[0]?.code).toBe('unreadable');
    expect((await smsv4(['lint', 'x.txt', '--var', 'novalue'])).code).toBe(2);
  });
});
