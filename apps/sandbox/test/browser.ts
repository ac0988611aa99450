// Launches the system's Chromium (Debian's `chromium` package; CI installs it) for the browser tests.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where the browser is expected (override with SMSV4_CHROMIUM). */
export const CHROMIUM_PATH = process.env.SMSV4_CHROMIUM ?? '/usr/bin/chromium';

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
