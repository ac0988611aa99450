// `./store.js` of the examples: your database (the pages say so where they import it).
import type { DeliveryReceipt, InboundMessage } from '@smsv4/core';

export declare function saveReceipt(receipt: DeliveryReceipt): Promise<void>;
export declare function saveInbound(message: InboundMessage): Promise<void>;
