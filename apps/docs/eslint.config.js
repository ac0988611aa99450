import { base } from '@smsv4/eslint-config';

export default [
  // Generated: the API reference's entry files, the checked copies of the examples, the build.
  { ignores: ['.api-entries/**', '.check/**', '.vitepress/dist/**', '.vitepress/cache/**', 'api/**', 'reference/**'] },
  ...base,
];
