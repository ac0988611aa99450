import { DELIVERY_STATES, SMS_ERRORS, estimateSegments, explain } from '@smsv4/core';
import { Script, createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as clientHelpers from './client-helpers.js';
import { dashboardClient } from './client-main.js';
import { ESTIMATOR_SCRIPT } from './estimator-script.js';
import { DASHBOARD_MARKUP } from './page-markup.js';
import { pageContentSecurityPolicy } from '../http/page-policy.js';
import { renderDashboardPage } from './page.js';

function inlineScript(html: string): string {
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  expect(scripts[0]?.[1]).toBe('');
  return scripts[0]?.[2] ?? '';
}

describe('renderDashboardPage', () => {
  const html = renderDashboardPage();

  it('is one self-contained HTML document, its policy without unsafe-inline: its script and style by hash, no framing', async () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const policy = await pageContentSecurityPolicy(html);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]{43}='; style-src 'sha256-[A-Za-z0-9+/]{43}='/);
    expect(await pageContentSecurityPolicy(html.replace('</script>', ' </script>'))).not.toBe(policy);
    // No external resource: no script or image source, no stylesheet link, no absolute URL loaded.
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+stylesheet/i);
    expect(html).not.toMatch(/<img\b/i);
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
    expect(style.length).toBeGreaterThan(1000);
    expect(style).not.toMatch(/url\(|@import/i);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//i);
  });

  it('embeds a script that parses and never inserts markup from data', () => {
    const script = inlineScript(html);
    expect(() => new Script(script)).not.toThrow();
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });

  it('reads the admin API through relative URLs only', () => {
    const script = inlineScript(html);
    expect(script).not.toMatch(/['"`]\/__sandbox\/api/);
    expect(script).not.toMatch(/fetch\(\s*['"`]/);
    expect(script).toContain('adminApiBase(location.href)');
  });

  it('embeds the delivery states and fault descriptions of the core catalogue', () => {
    const script = inlineScript(html);
    const config = /\}\)\(\{[^}]*\}, (\{.*\}), smsv4Text\);\n\}\)\(\);\s*$/s.exec(script)?.[1];
    expect(config).toBeDefined();
    const parsed = JSON.parse(config ?? '{}') as { deliveryOutcomes: Record<string, string>; faultDescriptions: { send: Record<string, string> } };
    for (const entry of Object.values(DELIVERY_STATES)) if (entry) expect(parsed.deliveryOutcomes[String(entry.code)]).toBe(entry.outcome);
    expect(parsed.faultDescriptions.send['1010']).toBe(SMS_ERRORS['1010'].description);
  });

  it("embeds core's estimator, bundled for the browser, which counts exactly as core does", () => {
    expect(ESTIMATOR_SCRIPT).toBeDefined();
    const script = inlineScript(html);
    expect(script).toContain(ESTIMATOR_SCRIPT);
    // The bundle alone, in a context with no Node globals (no require, process, Buffer): the text engine only.
    expect(ESTIMATOR_SCRIPT?.length).toBeLessThan(20_000);
    expect(ESTIMATOR_SCRIPT).not.toMatch(/XMLParser|TypeCompiler/);
    const context = createContext({ TextEncoder, TextDecoder });
    runInContext(`${ESTIMATOR_SCRIPT}\nglobalThis.engine = smsv4Text;`, context);
    const engine = context.engine as { estimateSegments: typeof estimateSegments; explain: typeof explain };
    for (const text of ['Hello', 'Your code is 123456 – valid 10 min', '€'.repeat(100), 'Привет 😀'.repeat(20), 'a'.repeat(161)]) {
      expect(JSON.parse(JSON.stringify(engine.explain(text)))).toEqual(JSON.parse(JSON.stringify(explain(text))));
      expect(engine.estimateSegments(text).segments).toBe(estimateSegments(text).segments);
    }
  });

  it('starts the client with every helper resolved (it stops at the first missing element)', () => {
    const script = inlineScript(html);
    const looked: string[] = [];
    const context = createContext({
      location: { href: 'http://127.0.0.1:4010/__sandbox/', hash: '', pathname: '/__sandbox/', search: '' },
      document: {
        getElementById(id: string) {
          looked.push(id);
          return null;
        },
      },
      URL,
      TextEncoder,
      TextDecoder,
    });
    expect(() => runInContext(script, context)).toThrow('dashboard: missing #connection');
    expect(looked).toEqual(['connection']);
  });

  it('refers only to elements the markup has', () => {
    const source = dashboardClient.toString();
    const ids = [...source.matchAll(/byId\(\s*["'`]([a-z-]+)["'`]\s*\)/g)].map((match) => match[1]);
    const templated = [...source.matchAll(/byId\(\s*`([a-z-]+)-\$\{/g)].map((match) => match[1]);
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids) expect(DASHBOARD_MARKUP, `#${id}`).toContain(`id="${id}"`);
    for (const kind of ['messages', 'callbacks', 'inbound', 'invocations']) expect(DASHBOARD_MARKUP).toContain(`id="count-${kind}"`);
    for (const field of ['delay', 'segment', 'code']) expect(DASHBOARD_MARKUP).toContain(`id="scenario-${field}-field"`);
    expect(templated.sort()).toEqual(['count', 'scenario']);
  });

  it('labels every form control and gives every table column headers', () => {
    const controls = [...DASHBOARD_MARKUP.matchAll(/<(input|select|textarea)\b[^>]*>/g)];
    expect(controls.length).toBeGreaterThan(10);
    for (const [control] of controls) {
      const id = /\bid="([^"]+)"/.exec(control)?.[1];
      const labelledById = id !== undefined && DASHBOARD_MARKUP.includes(`for="${id}"`);
      const before = DASHBOARD_MARKUP.slice(0, DASHBOARD_MARKUP.indexOf(control));
      const insideLabel = before.lastIndexOf('<label') > before.lastIndexOf('</label>');
      expect(labelledById || insideLabel, control).toBe(true);
    }
    const tables = DASHBOARD_MARKUP.split('<table').slice(1);
    expect(tables).toHaveLength(6);
    for (const table of tables) expect(table).toMatch(/<thead><tr>[\s\S]*<th scope="col">/);
    expect(DASHBOARD_MARKUP).toMatch(/id="live-status"[^>]*aria-live="polite"/);
  });

  it('embeds helpers that work on their own, as the browser runs them', () => {
    const context = createContext({ URL });
    const helpers = Object.entries(clientHelpers).filter(([, value]) => typeof value === 'function') as [string, (...args: unknown[]) => unknown][];
    runInContext(helpers.map(([, fn]) => fn.toString()).join('\n'), context);
    const run = (name: string, ...args: unknown[]): unknown => JSON.parse(JSON.stringify((context[name] as (...a: unknown[]) => unknown)(...args)));
    expect(run('describeScenario', { kind: 'delayed', delayMs: 1500 })).toBe(clientHelpers.describeScenario({ kind: 'delayed', delayMs: 1500 }));
    expect(run('buildScenario', { kind: 'fail-part', segmentNumber: '2', code: 'x' })).toEqual(clientHelpers.buildScenario({ kind: 'fail-part', segmentNumber: '2', code: 'x' }));
    expect(run('parseSseBuffer', 'event: change\ndata: {}\n\n')).toEqual(clientHelpers.parseSseBuffer('event: change\ndata: {}\n\n'));
    expect(run('adminApiBase', 'http://h/p/__sandbox')).toBe('http://h/p/__sandbox/api/');
    expect(run('describeEstimate', explain('Price – 5€'))).toEqual(clientHelpers.describeEstimate(explain('Price – 5€')));
    expect(run('buildComposeBody', { destination: '1415', content: 'x', segment: 'on' })).toEqual(clientHelpers.buildComposeBody({ destination: '1415', content: 'x', segment: 'on' }));
    expect(run('describeChanges', undefined, { messages: 1, callbacks: 0, inbound: 0, invocations: 0 })).toBe(
      clientHelpers.describeChanges(undefined, { messages: 1, callbacks: 0, inbound: 0, invocations: 0 }),
    );
  });
});
