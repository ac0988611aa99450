// Launches the system's Chromium (Debian's `chromium` package; CI installs it) for the browser tests.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** `chromium` on the PATH, as the test command's set-up step finds it. */
const onPath = (process.env.PATH ?? '')
  .split(delimiter)
  .map((dir) => join(dir, 'chromium'))
  .find((file) => isExecutable(file));

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where the browser is expected: SMSV4_CHROMIUM, else `chromium` on the PATH, else Debian's path. */
export const CHROMIUM_PATH = process.env.SMSV4_CHROMIUM ?? onPath ?? '/usr/bin/chromium';

/** Starts a headless Chromium with a fresh temporary profile and no background traffic. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set SMSV4_CHROMIUM`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
