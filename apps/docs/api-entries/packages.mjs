// The packages of the API reference: one TypeDoc module each, named as users import them.
export const API_PACKAGES = [
  { name: '@smsv4/core', slug: 'core' },
  { name: '@smsv4/core/segments', slug: 'core-segments' },
  { name: '@smsv4/transport-fetch', slug: 'transport-fetch' },
  { name: '@smsv4/express-webhooks', slug: 'express-webhooks' },
  { name: '@smsv4/fastify-webhooks', slug: 'fastify-webhooks' },
  { name: '@smsv4/fetch-webhooks', slug: 'fetch-webhooks' },
  { name: '@smsv4/nest-module', slug: 'nest-module' },
  { name: '@smsv4/queue', slug: 'queue' },
  { name: '@smsv4/testing', slug: 'testing' },
  { name: '@smsv4/testing/vitest', slug: 'testing-vitest' },
  { name: '@smsv4/testing/jest', slug: 'testing-jest' },
  { name: '@smsv4/testing/otel', slug: 'testing-otel' },
  { name: '@smsv4/sandbox', slug: 'sandbox' },
  { name: 'smsv4', slug: 'cli' },
];
