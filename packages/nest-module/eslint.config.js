import { base } from '@smsv4/eslint-config';

export default [
  ...base,
  // The CommonJS consumer of the built package is CommonJS on purpose.
  { files: ['test/support/**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
];
