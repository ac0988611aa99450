// `./helpers.js` of the telemetry suite example: the start given to describeReceiverConformance.
import type { ReceiverConformanceOptions } from '@smsv4/testing';

export declare const startMyReceiver: ReceiverConformanceOptions['start'];
