// The dependency rules of the repository, written once and checked by the test command
// (`npx -y pnpm@10.34.8 check:deps` runs them alone). ARCHITECTURE.md explains them.
//
// Packages are matched by pattern, so a package added later is covered by the rule of its kind:
// every folder of packages/ that is not core, the sandbox, the CLI or the testing kit is an adapter
// (transport-fetch, express-webhooks, nest-module, queue, fetch-webhooks, fastify-webhooks, ...),
// published as `@smsv4/<folder>`.
//
// An import of a workspace package shows up either resolved (`packages/core/dist/index.js`, once
// the package is built) or by its name (`@smsv4/core`, before the build): each pattern matches both.
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

/** Packages that are not adapters. */
const NOT_ADAPTERS = ['core', 'sandbox', 'cli', 'testing'];
/** The transport: the one package besides core an adapter may import (where it sends). */
const TRANSPORT = 'transport-fetch';
/** The adapters: every other folder of packages/ in the tree being checked (the working directory). */
const packagesDir = join(process.cwd(), 'packages');
const ADAPTERS = (existsSync(packagesDir) ? readdirSync(packagesDir, { withFileTypes: true }) : [])
  .filter((entry) => entry.isDirectory() && !NOT_ADAPTERS.includes(entry.name))
  .map((entry) => entry.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
/** A regular expression of the adapters' folder names (one that never matches when there is none). */
const ADAPTER = ADAPTERS.length === 0 ? '(?!)' : ADAPTERS.join('|');

/** A workspace package, resolved or by name; `name` is a regular expression of folder names. */
const workspacePackage = (name) => `^(packages/(${name})/|@smsv4/(${name})(/|$))`;
/** Any workspace package: under packages/, apps/ or tooling/, or a name of the @smsv4 scope, or the CLI (`smsv4`). */
const ANY_WORKSPACE_PACKAGE = '^((packages|apps|tooling)/|@smsv4/|smsv4(/|$))';
/** The shipped source of an adapter (its tests excluded through TESTS_AND_BENCHMARKS); group 1 is its folder. */
const ADAPTER_SOURCE = `^packages/(${ADAPTER})/src/`;
/** Tests, benchmarks and their helpers, wherever they are. */
const TESTS_AND_BENCHMARKS = ['\\.(test|test-d|bench)\\.[cm]?[jt]s$', '^(packages|apps|tooling)/[^/]+/(test|test-[^/]+|bench)/'];
/** Build and tool configuration files (eslint.config.js, tsup.config.ts, vitest.config.ts): they import the shared tooling. */
const CONFIG_FILES = '^(packages|apps|tooling)/[^/]+/[^/]+\\.config\\.[cm]?[jt]s$';

/** Core's rooms, bottom up: the foundation, the codecs of the resources, HTTP (sans-I/O), the receiver. */
const CORE_FOUNDATION = 'body|json|xml|text|time|protocol|errors';
const CORE_CODECS = 'codec|resource-codec|mt-request|mt-status|delivery-receipt|mobile-originate|preview|error-record|invoke-service|multipart';
const coreRoom = (rooms) => `^packages/core/src/(${rooms})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-no-workspace-package',
      comment: '@smsv4/core is the bottom of the house: it imports no other package of the workspace.',
      severity: 'error',
      from: { path: '^packages/core/', pathNot: CONFIG_FILES },
      to: { path: ANY_WORKSPACE_PACKAGE, pathNot: workspacePackage('core') },
    },
    {
      name: 'core-foundation-imports-no-room-above',
      comment: "Core is a stack with no arrow up: its foundation (body, json, xml, text, time, protocol facts, the error catalogue) imports no codec, no HTTP module, no receiver module.",
      severity: 'error',
      from: { path: coreRoom(CORE_FOUNDATION) },
      to: { path: coreRoom(`${CORE_CODECS}|http|webhooks`) },
    },
    {
      name: 'core-codecs-import-no-http-or-receiver',
      comment: 'The codecs of the resources sit below HTTP and the receiver: they import neither.',
      severity: 'error',
      from: { path: coreRoom(CORE_CODECS) },
      to: { path: coreRoom('http|webhooks') },
    },
    {
      name: 'core-http-imports-no-receiver',
      comment: "Core's sans-I/O HTTP layer (requests, responses, headers, Basic auth) sits below the receiver: it imports nothing of webhooks/.",
      severity: 'error',
      from: { path: coreRoom('http') },
      to: { path: coreRoom('webhooks') },
    },
    {
      name: 'adapter-imports-only-core-and-transport',
      comment:
        'An adapter imports core (its public entry) and, where it sends, the transport; nothing else of the workspace (not the CLI, not the testing kit, not an app or a tool).',
      severity: 'error',
      from: { path: ADAPTER_SOURCE, pathNot: TESTS_AND_BENCHMARKS },
      // Sibling adapters and the sandbox have rules of their own.
      to: { path: ANY_WORKSPACE_PACKAGE, pathNot: [workspacePackage(`core|${ADAPTER}|sandbox`)] },
    },
    {
      name: 'no-sibling-adapter',
      comment: 'Adapters share only through core: no adapter imports another (the transport aside, for adapters that send).',
      severity: 'error',
      from: { path: ADAPTER_SOURCE, pathNot: TESTS_AND_BENCHMARKS },
      to: { path: workspacePackage(ADAPTER), pathNot: ['^packages/$1/', '^@smsv4/$1(/|$)', workspacePackage(TRANSPORT)] },
    },
    {
      name: 'sandbox-only-in-tests-apps-cli-and-testing-kit',
      comment:
        'The sandbox emulates the service: tests, benchmarks (tooling/bench and any bench/ folder), apps, the CLI and the testing kit may import it; no shipped package code, repository script or tool may.',
      severity: 'error',
      from: { pathNot: ['^packages/(sandbox|cli|testing)/', '^apps/', '^tooling/bench/', ...TESTS_AND_BENCHMARKS] },
      to: { path: workspacePackage('sandbox') },
    },
    {
      name: 'no-deep-import',
      comment: "Packages import one another through their public entries (`@smsv4/core`, `@smsv4/core/segments`), never a file inside (`@smsv4/core/dist/...`, `../core/src/...`).",
      severity: 'error',
      from: { path: '^(packages|apps)/([^/]+)/', pathNot: [CONFIG_FILES, ...TESTS_AND_BENCHMARKS] },
      to: {
        path: ['^@smsv4/[^/]+/.', '^smsv4/.', '^(packages|apps|tooling)/[^/]+/'],
        pathNot: ['^$1/$2/', '^(packages|apps|tooling)/[^/]+/dist/index\\.(c|m)?js$', '^packages/core/dist/segments\\.(c|m)?js$', '^@smsv4/core/segments$', '^(packages|apps|tooling)/[^/]+/package\\.json$', '^@smsv4/[^/]+/package\\.json$'],
      },
    },
    {
      name: 'sandbox-engine-below-http',
      comment: 'Inside the sandbox, imports go one way, http → engine → state: the message engine never imports the routes, the listener or the dashboard.',
      severity: 'error',
      from: { path: '^packages/sandbox/src/engine/' },
      to: { path: '^packages/sandbox/src/(http|listen|dashboard)/' },
    },
    {
      name: 'sandbox-state-below-engine',
      comment: "Inside the sandbox, state is the bottom room: it imports no route, listener, dashboard or engine module (the clock's timer type aside).",
      severity: 'error',
      from: { path: '^packages/sandbox/src/state/' },
      to: { path: '^packages/sandbox/src/(http|listen|dashboard|engine)/', pathNot: '^packages/sandbox/src/engine/clock\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'No import circle anywhere: a module never reaches itself through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Installed packages and built output are seen as import targets but neither cruised nor followed
    // (an `exclude` would hide the imports that resolve into dist/ as well).
    doNotFollow: { path: ['(^|/)node_modules/', '^(packages|apps|tooling)/[^/]+/dist/'] },
    // The rule fixtures are deliberate violations.
    // The docs site's generated pages, its checked copies of the examples and its build.
    // tsup's config bundled for a build in progress (`tsup.config.bundled_*.mjs`) comes and goes while the rules run.
    exclude: { path: ['^(packages|apps|tooling)/[^/]+/coverage/', '^tooling/dependency-rules/test/fixtures/', '\\.bundled_[^/]*\\.mjs$', '^apps/docs/(\\.check|\\.api-entries|\\.vitepress/(dist|cache)|api|reference)/'] },
    // Type-only imports count: they couple packages as much as any other.
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
    reporterOptions: { text: { highlightFocused: false } },
  },
};
