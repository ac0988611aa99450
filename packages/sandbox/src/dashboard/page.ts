import * as clientHelpers from './client-helpers.js';
import { dashboardClient } from './client-main.js';
import { ESTIMATOR_SCRIPT } from './estimator-script.js';
import type { DashboardPageConfig } from './page-config.js';
import { createDashboardPageConfig } from './page-config.js';
import { DASHBOARD_MARKUP } from './page-markup.js';
import { DASHBOARD_CSS } from './page-style.js';

/** JSON that is safe inside an inline `<script>` (no `</script>`, no `<!--`, no line separators). */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The page's inline script: the pure helpers declared by their source text, core's estimator
 * bundled for the browser, then the client program called with them and the configuration, all
 * inside one function scope.
 */
function dashboardScript(config: DashboardPageConfig): string {
  if (ESTIMATOR_SCRIPT === undefined) {
    throw new Error('the dashboard page needs core\'s estimator bundled in: build @smsv4/sandbox (tsup), or run it under its vitest configuration');
  }
  const helpers: [string, { readonly name: string; toString(): string }][] = Object.entries(clientHelpers).filter(
    ([, value]) => typeof value === 'function',
  );
  const declarations = helpers.map(([, fn]) => fn.toString()).join('\n\n');
  // A bundler may rename a declaration (`truncate` → `truncate2`); map the public names onto it.
  const table = helpers.map(([name, fn]) => `${JSON.stringify(name)}: ${fn.name}`).join(', ');
  // Tools that keep function names (tsx, esbuild's keepNames) wrap functions in `__name(...)`.
  const prelude = 'const __name = (target) => target;';
  return `'use strict';\n(() => {\n${prelude}\n${declarations}\n\n${ESTIMATOR_SCRIPT}\n(${dashboardClient.toString()})({ ${table} }, ${jsonForScript(config)}, smsv4Text);\n})();\n`;
}

/**
 * Renders the sandbox dashboard: one self-contained HTML document (inline CSS and vanilla
 * JavaScript, no external resource) that reads the admin API through URLs relative to its own
 * address, so it works at `/__sandbox/` behind any origin or path prefix. It shows messages with
 * their parts and timeline, receipt and inbound delivery attempts with the receiver's answers,
 * inbound messages (with a form to inject one) and Invoke Service calls, updates live from the
 * `events` stream, and offers scenario, fault and reset controls. Every value is inserted as
 * text, never as markup. The sandbox serves it with a Content Security Policy that allows its one
 * inline script and one inline style by their hashes (no `'unsafe-inline'`) and forbids framing.
 */
export function renderDashboardPage(): string {
  const script = dashboardScript(createDashboardPageConfig());
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>smsv4 sandbox</title>
<style>${DASHBOARD_CSS}</style>
</head>
<body>
${DASHBOARD_MARKUP}
<script>
${script.replace(/<\/(script)/gi, '<\\/$1')}</script>
</body>
</html>
`;
}
