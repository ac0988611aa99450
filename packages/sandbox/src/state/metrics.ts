/**
 * The sandbox's counters: what it answered, what it delivered and what its callbacks met, kept
 * apart from the bounded store (they count everything since start or the last reset). Read as a
 * summary by the snapshot and the dashboard, and in the Prometheus text format at
 * `/__sandbox/metrics`.
 */

/** What the sandbox counted since it started or was last reset. */
export interface SandboxMetricsView {
  /** Answers per operation (`send`, `status`, `lookup`, `invokeService`, `other`), HTTP status and error code. */
  readonly requests: readonly { readonly operation: string; readonly status: number; readonly code?: string; readonly count: number }[];
  /** Sends accepted (202). */
  readonly sendsAccepted: number;
  /** Sends refused with an error record. */
  readonly sendsRejected: number;
  /** Message parts that reached a final state, per code. */
  readonly finalParts: Readonly<Record<string, number>>;
  /** Callback attempts per kind (`receipt`, `inbound`) and outcome (`delivered`, `failed`, `pending-retry`, `gave-up`). */
  readonly callbacks: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Inbound message parts injected. */
  readonly inbound: number;
}

/** Gauges read at scrape time. */
export interface SandboxGauges {
  readonly messagesStored: number;
  readonly inboundStored: number;
}

/** The counters of one sandbox. */
export interface SandboxMetrics {
  request(operation: string, status: number, code: string | undefined): void;
  finalPart(code: number): void;
  callback(kind: string, outcome: string): void;
  inbound(): void;
  view(): SandboxMetricsView;
  /** The Prometheus text exposition (format 0.0.4). */
  prometheus(gauges: SandboxGauges): string;
  reset(): void;
}

/** The content type of the Prometheus text format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const escapeLabel = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function labels(pairs: Readonly<Record<string, string | number | undefined>>): string {
  const parts = Object.entries(pairs)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => `${k}="${escapeLabel(String(v))}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

/** Creates empty counters. */
export function createSandboxMetrics(): SandboxMetrics {
  // Keyed by their labels; Maps keep the order things were first seen.
  let requests = new Map<string, { operation: string; status: number; code?: string; count: number }>();
  let finalParts = new Map<number, number>();
  let callbacks = new Map<string, { kind: string; outcome: string; count: number }>();
  let inbound = 0;
  return {
    request(operation, status, code) {
      const key = `${operation}|${status}|${code ?? ''}`;
      const entry = requests.get(key);
      if (entry !== undefined) entry.count++;
      else requests.set(key, { operation, status, ...(code === undefined ? {} : { code }), count: 1 });
    },
    finalPart(code) {
      finalParts.set(code, (finalParts.get(code) ?? 0) + 1);
    },
    callback(kind, outcome) {
      const key = `${kind}|${outcome}`;
      const entry = callbacks.get(key);
      if (entry !== undefined) entry.count++;
      else callbacks.set(key, { kind, outcome, count: 1 });
    },
    inbound() {
      inbound++;
    },
    view() {
      const list = [...requests.values()].map((r) => ({ ...r }));
      const sends = list.filter((r) => r.operation === 'send');
      const byKind: Record<string, Record<string, number>> = {};
      for (const { kind, outcome, count } of callbacks.values()) (byKind[kind] ??= {})[outcome] = count;
      return {
        requests: list,
        sendsAccepted: sends.filter((r) => r.status === 202).reduce((n, r) => n + r.count, 0),
        sendsRejected: sends.filter((r) => r.code !== undefined).reduce((n, r) => n + r.count, 0),
        finalParts: Object.fromEntries([...finalParts].map(([code, count]) => [String(code), count])),
        callbacks: byKind,
        inbound,
      };
    },
    prometheus({ messagesStored, inboundStored }) {
      const lines: string[] = [];
      const family = (name: string, type: 'counter' | 'gauge', help: string, samples: readonly [string, number][]): void => {
        lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
        for (const [l, v] of samples) lines.push(`${name}${l} ${v}`);
      };
      family(
        'smsv4_sandbox_requests_total',
        'counter',
        'Answers of the emulated service by operation, HTTP status and error code',
        [...requests.values()].map((r) => [labels({ operation: r.operation, status: r.status, code: r.code }), r.count]),
      );
      family('smsv4_sandbox_final_parts_total', 'counter', 'Message parts that reached a final state, by code', [...finalParts].map(([code, n]) => [labels({ code }), n]));
      family(
        'smsv4_sandbox_callback_attempts_total',
        'counter',
        'Receipt and inbound callback attempts by kind and outcome',
        [...callbacks.values()].map((c) => [labels({ kind: c.kind, outcome: c.outcome }), c.count]),
      );
      family('smsv4_sandbox_inbound_parts_total', 'counter', 'Inbound message parts injected', [['', inbound]]);
      family('smsv4_sandbox_messages_stored', 'gauge', 'Messages held in the store', [['', messagesStored]]);
      family('smsv4_sandbox_inbound_stored', 'gauge', 'Inbound message parts held in the store', [['', inboundStored]]);
      return `${lines.join('\n')}\n`;
    },
    reset() {
      requests = new Map();
      finalParts = new Map();
      callbacks = new Map();
      inbound = 0;
    },
  };
}
