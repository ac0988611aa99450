// On a real terminal (a pseudo-terminal made by util-linux `script`): colours and the progress line
// appear, as they do not on a pipe (see validate.e2e.test.ts).
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { coreFixture } from './fixtures.js';
import { BINARY, cleanEnvironment } from './helpers.js';

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

function onTerminal(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<{ code: number; output: string }> {
  const command = [process.execPath, BINARY, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    execFile('script', ['-qec', command, '/dev/null'], { env: cleanEnvironment({ TERM: 'xterm', ...env }), timeout: 20_000 }, (error, stdout) => {
      if (error !== null && typeof error.code !== 'number') reject(error);
      else resolve({ code: error === null ? 0 : (error.code as number), output: stdout });
    });
  });
}

describe('on a terminal', () => {
  const files = ['text.json', 'binary.json', 'wappush.json'].map((name) => coreFixture(`mt-request/valid/json/${name}`));

  it('colours the verdicts and shows the progress line, then clears it', async () => {
    const { code, output } = await onTerminal(['validate', ...files]);
    expect(code).toBe(0);
    expect(output).toContain('\u001b[32m✔ valid');
    expect(output).toContain('validated 3/3');
    expect(output).toContain('\r\u001b[2K');
  });

  it('does not colour with NO_COLOR, nor show progress with --no-progress', async () => {
    const { output } = await onTerminal(['validate', '--no-progress', ...files], { NO_COLOR: '1' });
    expect(output).not.toContain('\u001b[');
    expect(output).not.toContain('validated 3/3');
  });
});
