import { base } from '@smsv4/eslint-config';

export default [
  // The consumer project is installed and checked outside the workspace, against the packed packages.
  { ignores: ['test/consumer-project/**'] },
  ...base,
];
