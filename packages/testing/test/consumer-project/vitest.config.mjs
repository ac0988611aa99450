export default { test: { include: ['vitest/**/*.spec.ts'], setupFiles: ['@smsv4/testing/vitest'], testTimeout: 30_000 } };
