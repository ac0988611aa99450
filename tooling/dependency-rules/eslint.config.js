import { base } from '@smsv4/eslint-config';

// The fixture tree is a miniature repository whose imports break the rules on purpose.
export default [{ ignores: ['test/fixtures/**'] }, ...base];
