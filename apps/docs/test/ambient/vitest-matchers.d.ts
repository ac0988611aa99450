// The matchers' types, as the testing guide tells users to load them once.
import type {} from '@smsv4/testing/vitest';
