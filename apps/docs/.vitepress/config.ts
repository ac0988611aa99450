import { defineConfig } from 'vitepress';
import { API_PACKAGES } from '../api-entries/packages.mjs';

const guides = [
  { text: 'Send', items: [
    { text: 'With the client', link: '/guide/send-client' },
    { text: 'From the CLI', link: '/guide/send-cli' },
    { text: 'Through the queue', link: '/guide/send-queue' },
  ] },
  { text: 'Receive', items: [
    { text: 'Receipts and inbound messages', link: '/guide/receive' },
    { text: 'Express', link: '/guide/receive-express' },
    { text: 'Fastify', link: '/guide/receive-fastify' },
    { text: 'Fetch runtimes (Hono, Next.js, Bun, Deno, Workers)', link: '/guide/receive-fetch' },
    { text: 'NestJS', link: '/guide/receive-nest' },
    { text: 'Plain node:http', link: '/guide/receive-node-http' },
  ] },
  { text: 'Operate', items: [
    { text: 'Scale out on Redis', link: '/guide/scale-out-redis' },
    { text: 'Telemetry', link: '/guide/telemetry' },
    { text: 'Going to production', link: '/guide/production' },
  ] },
  { text: 'Build and test', items: [
    { text: 'Payloads and validation', link: '/guide/payloads' },
    { text: 'Text and segments', link: '/guide/text-and-segments' },
    { text: 'Test your integration', link: '/guide/testing' },
    { text: 'Contract checks in CI', link: '/guide/contract-checks' },
    { text: 'The sandbox', link: '/guide/sandbox' },
  ] },
];

const reference = [
  { text: 'Tables', items: [
    { text: 'Error codes', link: '/reference/errors' },
    { text: 'The 540 rules', link: '/reference/rules-540' },
    { text: 'Telemetry names', link: '/reference/telemetry' },
    { text: 'CLI commands', link: '/reference/cli' },
    { text: 'Wire facts', link: '/reference/wire-facts' },
  ] },
  { text: 'API', items: API_PACKAGES.map(({ name }) => ({ text: name, link: `/api/${name}` })) },
];

export default defineConfig({
  title: 'smsv4',
  description: 'A TypeScript toolkit for the Global SMS API v4 and the Invoke Service.',
  lang: 'en',
  cleanUrls: true,
  lastUpdated: false,
  srcExclude: ['README.md', 'test/**', 'scripts/**', '.api-entries/**'],
  themeConfig: {
    search: {
      provider: 'local',
      options: {
        // The index keeps a page's text only: its code blocks are indexed unhighlighted, so each
        // block goes through the highlighter once per build, not twice.
        _render(src, env, md) {
          const highlight = md.options.highlight;
          md.options.highlight = null;
          try {
            const html = md.render(src, env);
            return env.frontmatter?.search === false ? '' : html;
          } finally {
            md.options.highlight = highlight;
          }
        },
      },
    },
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Guides', link: '/guide/send-client' },
      { text: 'Reference', link: '/reference/errors' },
      { text: 'Playground', link: '/playground' },
    ],
    sidebar: {
      '/guide/': guides,
      '/getting-started': guides,
      '/reference/': reference,
      '/api/': reference,
    },
    outline: { level: [2, 3] },
  },
  markdown: {
    config(md) {
      // TypeScript blocks: lines above `// ---cut---` are checked with the block but not shown
      // (the convention of twoslash); the words after the language (`runnable`, `server`) are
      // read by the tests only.
      md.core.ruler.push('smsv4-code-blocks', (state) => {
        for (const token of state.tokens) {
          if (token.type !== 'fence' || !/^(ts|typescript)\b/.test(token.info)) continue;
          token.info = token.info.replace(/\b(runnable|server)\b/g, '').trim();
          const cut = token.content.indexOf('// ---cut---\n');
          if (cut !== -1) token.content = token.content.slice(cut + '// ---cut---\n'.length);
        }
      });
    },
  },
  vite: {
    logLevel: 'warn',
    build: { chunkSizeWarningLimit: 2048 },
  },
});
