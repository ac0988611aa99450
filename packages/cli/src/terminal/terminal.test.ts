import { describe, expect, it } from 'vitest';
import { colorEnabled } from './colors.js';
import { createProgress } from './progress.js';

const tty = { write: () => undefined, isTTY: true };
const pipe = { write: () => undefined, isTTY: false };

describe('colorEnabled', () => {
  it('colours a terminal only, unless forced or turned off', () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
    expect(colorEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' }, false)).toBe(false);
  });
});

describe('createProgress', () => {
  it('writes throttled updates, always the last one, and clears the line', () => {
    let clock = 0;
    const written: string[] = [];
    const progress = createProgress({ write: (text) => written.push(text), isTTY: true }, { now: () => clock });
    progress.update(1, 3, 'checked');
    clock = 50;
    progress.update(2, 3, 'checked');
    clock = 60;
    progress.update(3, 3, 'checked');
    progress.finish();
    expect(written).toEqual(['\r\u001b[2Kchecked 1/3', '\r\u001b[2Kchecked 3/3', '\r\u001b[2K']);
  });

  it('writes nothing to a pipe unless enabled', () => {
    const written: string[] = [];
    const progress = createProgress({ write: (text) => written.push(text), isTTY: false });
    progress.update(1, 1);
    progress.note('x');
    progress.finish();
    expect(written).toEqual([]);
  });
});
