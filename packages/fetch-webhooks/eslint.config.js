import { runtimeNeutral } from '@smsv4/eslint-config';

export default runtimeNeutral;
