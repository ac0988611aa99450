import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DEFAULT_ACCOUNTS } from '@smsv4/sandbox';
import { describe, expect, it } from 'vitest';
import { curlCommand, exampleAccount, exampleCommands, formatBanner, SAMPLE_DESTINATION, shellQuote, TICKET_PLACEHOLDER } from './banner.js';

const run = promisify(execFile);

describe('shellQuote', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    expect(shellQuote('http://127.0.0.1:4010/sms/v4/mt')).toBe('http://127.0.0.1:4010/sms/v4/mt');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote(`it's "$HOME" \`x\``)).toBe(`'it'\\''s "$HOME" \`x\`'`);
  });

  it('round-trips any text through a real shell', async () => {
    for (const text of [`it's`, '$(echo no)', '{"a":"b c"}', 'ünï\ncode', '`uname`; rm -rf /nothing', '']) {
      const { stdout } = await run('sh', ['-c', `printf %s ${shellQuote(text)}`]);
      expect(stdout).toBe(text);
    }
  });
});

describe('curlCommand', () => {
  it('writes credentials as -u, headers as -H and the body as --data-binary', () => {
    const command = curlCommand(
      { operation: 'send', method: 'POST', url: 'http://h:1/sms/v4/mt', headers: { authorization: 'Basic x', 'content-type': 'application/json; charset=UTF-8' }, body: '{"it\'s":1}' },
      { accountId: 'acme', password: 'p w' },
    );
    expect(command).toBe(`curl -i -u 'acme:p w' -H 'Content-Type: application/json; charset=UTF-8' --data-binary '{"it'\\''s":1}' http://h:1/sms/v4/mt`);
  });
});

describe('formatBanner', () => {
  const banner = formatBanner({ apiUrl: 'http://127.0.0.1:4010', dashboardUrl: 'http://127.0.0.1:4010/__sandbox/', accounts: DEFAULT_ACCOUNTS, timeScale: 1 });

  it('shows the URLs, the clock and every default credential', () => {
    expect(banner).toContain('  API         http://127.0.0.1:4010\n');
    expect(banner).toContain('  Dashboard   http://127.0.0.1:4010/__sandbox/\n');
    expect(banner).toContain('simulated, real time');
    expect(banner).toContain('Default credentials (account ID : password):');
    for (const account of DEFAULT_ACCOUNTS) expect(banner).toContain(`  ${account.accountId} : ${account.password} `);
  });

  it('gives a JSON send and a status request for the first standard account', () => {
    expect(exampleAccount(DEFAULT_ACCOUNTS)?.accountId).toBe('sandbox');
    const { send, status } = exampleCommands('http://127.0.0.1:4010', DEFAULT_ACCOUNTS[0]!);
    expect(banner).toContain(`\n  ${send}\n`);
    expect(banner).toContain(`\n  ${status}\n`);
    expect(send).toMatch(/^curl -i -u sandbox:sandbox-password -H 'Content-Type: application\/json; charset=UTF-8' .*--data-binary '\{"mobileTerminate":/);
    expect(send).toContain(SAMPLE_DESTINATION);
    expect(send.endsWith(' http://127.0.0.1:4010/sms/v4/mt')).toBe(true);
    expect(status).toMatch(new RegExp(`^curl -i -u sandbox:sandbox-password -H 'Accept: application/xml' http://127.0.0.1:4010/sms/v4/mt/${TICKET_PLACEHOLDER}/status$`));
  });

  it('names the files in use and the bound address', () => {
    const custom = formatBanner({
      apiUrl: 'http://127.0.0.1:1',
      dashboardUrl: 'http://127.0.0.1:1/__sandbox/#token=t',
      accounts: [{ accountId: 'blocked-one', password: 'x', kind: 'blocked' }, { accountId: 'acme', password: 'pw' }],
      accountsFile: 'accounts.json',
      operatorsFile: 'ops.json',
      timeScale: 3600,
      boundTo: 'http://0.0.0.0:1 (every interface)',
      callbackOffset: '-05:00',
    });
    expect(custom).toContain('Accounts from accounts.json (account ID : password):');
    expect(custom).toContain('  Callbacks   timestamps at -05:00');
    expect(custom).toContain('  Operators   ops.json');
    expect(custom).toContain('  Listening   http://0.0.0.0:1 (every interface)');
    expect(custom).toContain('×3600 (one simulated hour per second)');
    expect(custom).toContain('curl -i -u acme:pw ');
  });
});
