// Public entry point of @smsv4/queue. Every public symbol is exported here by name.

export { createSendQueue } from './create-send-queue.js';
export type {
  SendQueue,
  SendQueueOptions,
  QueueRetryOptions,
  EnqueueItem,
  Enqueued,
  ResolveError,
  ReceiptRecorded,
  ReceiptUnmatched,
} from './create-send-queue.js';

export { QueueUnavailableError } from './queue-unavailable.js';
export type { QueueUnavailableReason } from './queue-unavailable.js';
export type { PersistenceCheck } from './persistence.js';

export { MESSAGE_STATES, SETTLED_STATES } from './message-state.js';
export type { MessageState, OutcomeReason, QueuedMessage, StateChange } from './message-state.js';

export type { RateLimit } from './send-gate.js';
export type { SendWorker, WorkerOptions, SendJobData } from './send-worker.js';

export { TEMPORARY_ERROR_DELAY_MS } from './send-outcome.js';
