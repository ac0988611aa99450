/**
 * The JSON shapes of the admin API (`GET /__sandbox/api/state` and the change events), shared
 * with the dashboard. Times are ISO 8601 UTC with milliseconds, on the simulated clock.
 */
import type { AccountKind } from './accounts.js';
import type { SandboxSettings } from './settings.js';
import type { SandboxMetricsView } from './metrics.js';

/** One part of a message, as the dashboard shows it. */
export interface MessagePartView {
  segmentNumber: number;
  totalSegments: number;
  /** The part's current code (2, 3, then final); absent before the message was split. */
  code?: number;
  description?: string;
  /** When the part was delivered (only once delivered). */
  deliveryDate?: string;
  /** The part's text (text messages) or hex (hex content). */
  text?: string;
}

/** One event of a message's life, oldest first. */
export interface TimelineEntry {
  at: string;
  event: string;
  detail?: string;
}

/** A sent message. */
export interface MessageView {
  ticketId: string;
  accountId: string;
  submittedAt: string;
  format: 'json' | 'xml';
  destination: string;
  source?: string;
  type: 'text' | 'hexEncodedText' | 'binary' | 'wapPush';
  /** As sent: text, or hex. */
  content: string;
  encoding: 'GSM' | 'UCS-2' | 'binary';
  mlc: 'reject' | 'truncate' | 'segment';
  /** The top-level status (the multipart summary for several parts). */
  summary: { code: number; description: string };
  receiptUrl?: string;
  parts: MessagePartView[];
  timeline: TimelineEntry[];
}

/** One attempt to post a receipt or an inbound message. */
export interface CallbackAttemptView {
  id: string;
  kind: 'receipt' | 'inbound';
  ticketId: string;
  segmentNumber?: number;
  url: string;
  attempt: number;
  at: string;
  outcome: 'delivered' | 'failed' | 'pending-retry' | 'gave-up';
  httpStatus?: number;
  error?: string;
  /** The first 500 characters of the receiver's response. */
  responseBody?: string;
  durationMs?: number;
  nextAttemptAt?: string;
}

/** An inbound message (one part). */
export interface InboundView {
  ticketId: string;
  accountId: string;
  submittedAt: string;
  from: string;
  to: string;
  type: string;
  udh: boolean;
  content: string;
  /** The readable text, when the sandbox knows it. */
  text?: string;
  url?: string;
  status: 'pending' | 'delivered' | 'retrying' | 'gave-up' | 'no-url';
}

/** An Invoke Service call. */
export interface InvocationView {
  requestId: string;
  accountId: string;
  at: string;
  serviceId: string;
  phoneNumber: string;
  variables?: unknown;
  outcome: 'accepted' | 'rejected';
  code?: number;
  description?: string;
}

/** An account, as the dashboard lists it (no password). */
export interface AccountView {
  accountId: string;
  label?: string;
  kind: AccountKind;
  /** The Basic credentials of its callbacks, when set: the user name, the password always `***`. */
  callbackCredentials?: { username: string; password: '***' };
}

/** The whole visible state of a sandbox: `GET /__sandbox/api/state`. */
export interface SandboxSnapshot {
  /** The simulated clock. */
  now: string;
  timeScale: number;
  /** Newest first, at most 500. */
  messages: MessageView[];
  /** Newest first, at most 1000. */
  callbacks: CallbackAttemptView[];
  /** Newest first, at most 500. */
  inbound: InboundView[];
  /** Newest first, at most 500. */
  invocations: InvocationView[];
  accounts: AccountView[];
  /** What the dashboard can change while the sandbox runs. */
  settings: SandboxSettings;
  /** What the sandbox counted since it started or was last reset. */
  metrics: SandboxMetricsView;
}

/**
 * One page of every stored message, oldest first: `GET /__sandbox/api/messages?offset=&limit=`.
 * Unlike the state's newest 500, it reaches every message the store still holds (`maxMessages`).
 */
export interface MessagePage {
  /** Messages stored in all. */
  total: number;
  /** Index of the first message of the page (0 for the oldest stored). */
  offset: number;
  messages: MessageView[];
}

/** What changed: the `data` of an `event: change` of the SSE stream. */
export interface SandboxChange {
  kind: 'message' | 'callback' | 'inbound' | 'invocation' | 'reset' | 'settings';
}
