import { base } from '@smsv4/eslint-config';

export default [
  ...base,
  {
    // Nest injects constructor parameters by their type (decorator metadata): with these two options
    // the type-import rule keeps the imports that metadata needs as values.
    files: ['**/*.ts', '**/*.mts'],
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
  },
];
