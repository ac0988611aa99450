import { estimateSegments, explain } from '@smsv4/core';
import picocolors from 'picocolors';
import { describe, expect, it } from 'vitest';
import { formatEstimate, formatExplanation, languageCosts, loneSurrogateList } from './format-estimate.js';

const plain = picocolors.createColors(false);
const hindi = 'आपका OTP 482913 है। कृपया इसे किसी के साथ साझा न करें। यह कोड 10 मिनट में समाप्त हो जाएगा। धन्यवाद';

describe('formatEstimate with national languages', () => {
  it('says which tables were chosen, why, and what each enabled language alone would cost', () => {
    const x = explain(hindi, { nationalLanguages: ['bengali', 'hindi'] });
    expect(formatEstimate(x.estimate, plain, x)).toBe(
      [
        'Encoding         GSM 03.38 (7-bit)',
        'Parts            1 part, 152 septets in a single part',
        'Length           104 septets',
        'Left             48 septets in the last part',
        'Header           7 octets of user data header in each part',
        'National         locking shift hindi, single shift hindi',
        'Table choice     The Hindi locking shift table and the Hindi single shift table: 1 part, 48 septets left in the last part. It is the only combination of the enabled tables that holds every character.',
        'Each language    no national table: UCS-2, 2 parts · bengali: UCS-2, 2 parts, saves no part · hindi: GSM, 1 part, saves 1 part',
        'mlc              reject accepted · truncate whole · segment 1 part',
        '',
      ].join('\n'),
    );
  });

  it('says when the default tables win, and when no combination holds the text', () => {
    const x = explain('hello', { nationalLanguages: ['hindi'] });
    const out = formatEstimate(x.estimate, plain, x);
    expect(out).toContain(
      'Table choice     The GSM 03.38 default alphabet and extension table: 1 part, 155 septets left in the last part. Chosen for the fewest parts, then the fewest tables: the default alphabet and the Hindi single shift table also takes 1 part but with one national table, whose header octets every part pays.\n',
    );
    expect(out).toContain('Each language    no national table: GSM, 1 part · hindi: GSM, 1 part, saves no part\n');
    expect(out).not.toContain('National ');
    const none = explain('नमस्ते Привет', { nationalLanguages: ['hindi', 'urdu'] });
    expect(formatEstimate(none.estimate, plain, none)).toContain(
      'Table choice     No combination of the enabled tables (Hindi, Urdu) holds every character: the text is UCS-2, 1 part.\n' +
        'Each language    no national table: UCS-2, 1 part · hindi: UCS-2, 1 part, saves no part · urdu: UCS-2, 1 part, saves no part\n',
    );
  });

  it('prints no table choice without national languages, nor for an estimate alone', () => {
    const x = explain('hello');
    expect(formatEstimate(x.estimate, plain, x)).not.toMatch(/Table choice|Each language/);
    expect(formatEstimate(estimateSegments(hindi, { nationalLanguages: ['hindi'] }), plain)).not.toMatch(/Table choice|Each language/);
  });

  it('colours the parts a language saves', () => {
    const colors = picocolors.createColors(true);
    const x = explain(hindi, { nationalLanguages: ['hindi'] });
    expect(x.tables).toBeDefined();
    expect(languageCosts(x.tables as NonNullable<typeof x.tables>, colors)).toBe(`no national table: UCS-2, 2 parts · hindi: GSM, 1 part, ${colors.green('saves 1 part')}`);
  });
});

describe('formatEstimate with lone surrogates', () => {
  it('flags them, with their indexes, after the characters that force UCS-2', () => {
    expect(formatEstimate(estimateSegments('ok \ud83d \udc00'), plain)).toBe(
      [
        'Encoding         UCS-2 (UTF-16)',
        'Parts            1 part, 70 UTF-16 units in a single part',
        'Length           6 UTF-16 units',
        'Left             64 UTF-16 units in the last part',
        'UCS-2 forced by  U+D83D (at 3), U+DC00 (at 5)',
        'Lone surrogates  2 at 3, 5: halves of surrogate pairs, no characters; no request can carry the text, fix it first',
        'mlc              reject accepted · truncate whole · segment 1 part',
        '',
      ].join('\n'),
    );
    expect(loneSurrogateList([7])).toBe('1 at 7: half of a surrogate pair, no character; no request can carry the text, fix it first');
    // A surrogate pair is one character: nothing to flag.
    expect(formatEstimate(estimateSegments('ok 😀'), plain)).not.toContain('Lone surrogates');
  });

  it('flags them in an explanation too', () => {
    const out = formatExplanation(explain('ok \ud83d then'), plain);
    expect(out).toContain('UCS-2 forced by  U+D83D (at 3)\nLone surrogates  1 at 3: half of a surrogate pair, no character; no request can carry the text, fix it first\n');
  });
});
