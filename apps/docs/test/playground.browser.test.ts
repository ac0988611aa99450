// The playground in headless Chromium: core running in the page counts the parts of a typed text
// and judges a pasted send with the service's exact 540 description. A screenshot is kept in
// test/artifacts/. The site's local search answers in the same browser, and no page asks anything
// of another host.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeMtRequest, estimateSegments, MT_INVALID } from '@smsv4/core';
import { estimateSegments as estimateWithTables, hindi } from '@smsv4/core/segments';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_ROOT } from './code-blocks.js';
import { serveSite } from './static-site.js';

/** Where the browser is expected (override with SMSV4_CHROMIUM). */
const CHROMIUM_PATH = process.env.SMSV4_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = join(DOCS_ROOT, 'test/artifacts');

describe('playground in Chromium', () => {
  let site: Awaited<ReturnType<typeof serveSite>>;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const requests: string[] = [];
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

  beforeAll(async () => {
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set SMSV4_CHROMIUM`);
    site = await serveSite();
    profile = await mkdtemp(join(tmpdir(), 'smsv4-docs-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      viewport: { width: 1280, height: 1100 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${site.url}/playground`);
    await byTestId('text-result').waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await site?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('counts the parts of a typed text as core does, with what forces UCS-2 and its substitutes', async () => {
    const text = 'Your parcel is on its way – track it at example.com ’today’';
    await byTestId('text-input').fill('');
    await byTestId('text-input').pressSequentially(text);
    const expected = estimateSegments(text);
    await expect.poll(() => byTestId('segments').textContent()).toBe(String(expected.segments));
    expect(await byTestId('encoding').textContent()).toBe('UCS-2');
    expect(await byTestId('units-left').textContent()).toBe(String(expected.unitsLeft));
    expect(await byTestId('ucs2').textContent()).toContain('– (U+2013)');
    expect(await byTestId('substitutes').textContent()).toContain('– → -');
    expect(await byTestId('substitutes').textContent()).toContain('GSM, 1 part, saves 0 parts');
  });

  it('chooses national tables when the reader enables them', async () => {
    await byTestId('text-input').fill('Siparişiniz kargoya verildi. İyi günler!');
    await expect.poll(() => byTestId('encoding').textContent()).toBe('UCS-2');
    await byTestId('national-turkish').check();
    await expect.poll(() => byTestId('encoding').textContent()).toBe('GSM');
    expect(await byTestId('tables').textContent()).toContain('turkish');
    await byTestId('national-turkish').uncheck();

    // Every national language of core is offered: Hindi text fits GSM with the Hindi locking table.
    const hindiText = 'आपका ऑर्डर भेज दिया गया है';
    await byTestId('text-input').fill(hindiText);
    await expect.poll(() => byTestId('encoding').textContent()).toBe('UCS-2');
    await byTestId('national-hindi').check();
    const expected = estimateWithTables(hindiText, { nationalLanguages: [hindi] });
    expect(expected.encoding).toBe('GSM');
    await expect.poll(() => byTestId('encoding').textContent()).toBe('GSM');
    expect(await byTestId('segments').textContent()).toBe(String(expected.segments));
    expect(await byTestId('tables').textContent()).toContain('hindi locking');
    await byTestId('national-hindi').uncheck();
    expect(await page.locator('[data-testid^="national-"]').count()).toBe(13);
  });

  it('judges a pasted send with the exact 540 description of the rule it breaks', async () => {
    const body = '{"mobileTerminate":{"destination":{"address":"14255550100"},"message":{"type":"text","content":"Hi"},"delivery":{"url":"https://example.com/receipts"}}}';
    const verdict = decodeMtRequest(body, 'json');
    expect(verdict.ok).toBe(false);
    await byTestId('payload-input').fill(body);
    await expect.poll(() => byTestId('verdict').getAttribute('data-ok')).toBe('false');
    expect(await byTestId('verdict-code').textContent()).toBe('540');
    expect(await byTestId('verdict-description').textContent()).toBe(MT_INVALID.receiptRequestedRequired);

    await byTestId('payload-input').fill(body.replace('"delivery":{', '"delivery":{"receiptRequested":"final",'));
    await expect.poll(() => byTestId('verdict').getAttribute('data-ok')).toBe('true');

    await byTestId('payload-format').selectOption('xml');
    await byTestId('payload-input').fill('<mobileTerminate><destination address="+1425"/><message type="text"><content>Hi</content></message></mobileTerminate>');
    await expect.poll(() => byTestId('verdict-description').textContent()).toBe(MT_INVALID.destinationAddress);
  });

  it('the site searches locally: a query finds its page, and no page asks anything off the site', async () => {
    const site2 = await context.newPage();
    const offSite: string[] = [];
    site2.on('request', (request) => {
      if (!request.url().startsWith(site.url) && !request.url().startsWith('data:')) offSite.push(request.url());
    });
    site2.on('pageerror', (error) => pageErrors.push(error.message));
    await site2.goto(`${site.url}/`);
    await site2.locator('.DocSearch-Button').click();
    await site2.locator('#localsearch-input').fill('receiptRequestedRequired');
    const first = site2.locator('.VPLocalSearchBox .result').first();
    await first.waitFor();
    expect(await first.getAttribute('href')).toMatch(/\/reference\/rules-540|\/api\//);
    await site2.keyboard.press('Escape');
    for (const path of ['/guide/send-client', '/reference/errors']) await site2.goto(`${site.url}${path}`, { waitUntil: 'load' });
    await site2.close();
    expect(offSite).toEqual([]);
  });

  it('runs in the page alone: no error, no request off the site', async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await byTestId('text-input').fill('Your code is 123456 – valid 10 min');
    await page.screenshot({ path: join(ARTIFACTS, 'playground.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(site.url))).toEqual([]);
  });
});
