import { base } from '@smsv4/eslint-config';

export default base;
