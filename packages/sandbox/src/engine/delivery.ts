/**
 * The simulated operator: moves each part of an accepted message from 2 (accepted) to 3 (with the
 * operator) to its final code, by the destination's scenario and the message's validity period,
 * and sends one receipt per final part when the send asked for receipts.
 *
 * Timing (simulated ms after submission, `delay` from the scenario, default 1000): parts reach 3
 * at `min(500, delay / 2)`; part k is final at `delay + (k - 1) × gap` with `gap = min(100, delay / 10)`, so
 * the parts of a multipart message finish one after the other. A final state due after the
 * validity period is 811 at the end of the period instead. Failures of the platform itself (341,
 * 345, `mlc`) are final at that same moment without passing through 3.
 */
import { encodeDeliveryReceipt } from '@smsv4/core';
import type { CallbackDispatcher } from './callbacks.js';
import type { ChangeFeed } from '../state/change-feed.js';
import type { SandboxClock } from './clock.js';
import { deliveryReceiptOf, describeCode, isDelivered } from './message-documents.js';
import type { MessagePlan } from './plan-message.js';
import type { Scenario } from './scenarios.js';
import { addTimeline, type MessageRecord, type PartRecord } from '../state/store.js';

/** The default delay before a part is delivered (simulated ms). */
export const DEFAULT_DELIVERY_DELAY_MS = 1000;
/** How long an `expired` message waits when it has no validity period (one simulated hour). */
export const DEFAULT_EXPIRY_MS = 3_600_000;

/** Longest time before the operator takes a part (code 3), simulated ms. */
const OPERATOR_DELAY_MS = 500;
const ACCEPTED = 2;
const WITH_OPERATOR = 3;
const EXPIRED = 811;

/** Runs the life of accepted messages. */
export interface DeliverySimulator {
  /** Sets the parts of a new message from its plan and schedules their transitions. */
  start(record: MessageRecord, plan: MessagePlan, scenario: Scenario): void;
}

/** What the simulator needs. */
export interface DeliveryContext {
  readonly clock: SandboxClock;
  readonly feed: ChangeFeed;
  readonly dispatcher: CallbackDispatcher;
  /** Whether a message is still stored (evicted or reset messages get no more events). */
  readonly isLive: (record: MessageRecord) => boolean;
  /** The offset receipts write their `deliveryDate` at, read when each receipt is made (default `Z`). */
  readonly timestampOffset?: () => string;
  /** Told the code of each part that reaches a final state (the sandbox's counters). */
  readonly onFinalPart?: (code: number) => void;
  /** The `Authorization` an account's callbacks carry when their URL has no credentials (read at each attempt). */
  readonly callbackAuthorization?: (accountId: string) => string | undefined;
}

interface FinalEvent {
  readonly at: number;
  readonly code: number;
}

/** Final event of each part (`undefined`: the operator never reports it). */
function finalEvents(record: MessageRecord, plan: MessagePlan, scenario: Scenario): { operatorAt: number; finals: (FinalEvent | undefined)[] } {
  const total = plan.parts.length;
  const delay = scenario.kind === 'delivered' || scenario.kind === 'delayed' ? (scenario.delayMs ?? DEFAULT_DELIVERY_DELAY_MS) : DEFAULT_DELIVERY_DELAY_MS;
  const operatorAt = record.submittedAt + Math.min(OPERATOR_DELAY_MS, Math.floor(delay / 2));
  if (plan.failure !== undefined) return { operatorAt, finals: plan.parts.map(() => ({ at: operatorAt, code: plan.failure?.code as number })) };
  const gap = Math.min(100, Math.floor(delay / 10));
  const validity = record.request.message.validityPeriod;
  const validUntil = validity === undefined ? undefined : record.submittedAt + validity * 1000;
  const finals: (FinalEvent | undefined)[] = [];
  for (let k = 1; k <= total; k++) {
    const at = record.submittedAt + delay + (k - 1) * gap;
    let event: FinalEvent | undefined;
    switch (scenario.kind) {
      case 'delivered':
      case 'delayed':
        event = { at, code: 4 };
        break;
      case 'expired':
        event = { at: validUntil ?? record.submittedAt + DEFAULT_EXPIRY_MS, code: EXPIRED };
        break;
      case 'fail-part':
        event = { at, code: k === scenario.segmentNumber ? (scenario.code ?? EXPIRED) : 4 };
        break;
      case 'no-receipt':
        event = scenario.segmentNumber === undefined || scenario.segmentNumber === k ? undefined : { at, code: 4 };
        break;
      case 'rejected':
        event = { at, code: scenario.code };
        break;
    }
    if (event !== undefined && validUntil !== undefined && event.at > validUntil) event = { at: validUntil, code: EXPIRED };
    finals.push(event);
  }
  return { operatorAt, finals };
}

/** Creates the simulator. */
export function createDeliverySimulator({ clock, feed, dispatcher, isLive, onFinalPart, timestampOffset = () => 'Z', callbackAuthorization }: DeliveryContext): DeliverySimulator {
  const schedule = (record: MessageRecord, at: number, fn: () => void): void => {
    const timer = clock.setTimeout(() => {
      record.timers.delete(timer);
      if (isLive(record)) fn();
    }, Math.max(0, at - clock.now()));
    record.timers.add(timer);
  };

  const sendReceipt = (record: MessageRecord, part: PartRecord, at: number): void => {
    const url = record.receiptUrl;
    if (url === undefined) return;
    const label = record.parts.length > 1 ? `receipt for part ${part.segmentNumber}` : 'receipt';
    dispatcher.dispatch({
      kind: 'receipt',
      ticketId: record.ticketId,
      ...(record.parts.length > 1 ? { segmentNumber: part.segmentNumber } : {}),
      url,
      format: record.format,
      body: encodeDeliveryReceipt(deliveryReceiptOf(record, part, at, timestampOffset()), record.format),
      ...(callbackAuthorization === undefined ? {} : { authorization: () => callbackAuthorization(record.accountId) }),
      onAttempt(attempt) {
        if (!isLive(record)) return;
        const status = attempt.httpStatus === undefined ? attempt.error : `HTTP ${attempt.httpStatus}`;
        const event =
          attempt.outcome === 'delivered'
            ? `${label} delivered`
            : attempt.outcome === 'pending-retry'
              ? `${label} failed, retry at ${attempt.nextAttemptAt}`
              : attempt.outcome === 'gave-up'
                ? `${label} failed, gave up`
                : `${label} failed`;
        addTimeline(record, clock.now(), event, `attempt ${attempt.attempt}: ${status ?? ''}`.trim());
        feed.emit('message');
      },
    });
  };

  const finish = (record: MessageRecord, part: PartRecord, code: number): void => {
    const now = clock.now();
    part.code = code;
    const description = describeCode(code);
    if (description === undefined) delete part.description;
    else part.description = description;
    part.final = true;
    onFinalPart?.(code);
    if (isDelivered(code)) part.deliveredAt = now;
    const which = record.parts.length > 1 ? `part ${part.segmentNumber}/${part.totalSegments}` : 'message';
    addTimeline(record, now, `${which} → ${code}`, description);
    sendReceipt(record, part, now);
  };

  return {
    start(record, plan, scenario) {
      const total = plan.parts.length;
      const code2 = describeCode(ACCEPTED);
      record.parts = plan.parts.map((text, i) => ({
        segmentNumber: i + 1,
        totalSegments: total,
        code: ACCEPTED,
        ...(code2 === undefined ? {} : { description: code2 }),
        final: false,
        text,
      }));
      const detail = `${total} part${total === 1 ? '' : 's'}, ${record.encoding}${plan.remark === undefined ? '' : `; ${plan.remark}`}`;
      addTimeline(record, record.submittedAt, 'accepted', detail);
      if (plan.failure !== undefined) addTimeline(record, record.submittedAt, 'platform failure', plan.failure.reason);
      if (record.request.delivery !== undefined && record.receiptUrl === undefined) {
        addTimeline(record, record.submittedAt, 'no receipt URL', 'the send asked for receipts but neither delivery.url nor the account has a URL');
      }
      const { operatorAt, finals } = finalEvents(record, plan, scenario);
      if (plan.failure === undefined) {
        schedule(record, operatorAt, () => {
          const code3 = describeCode(WITH_OPERATOR);
          let changed = false;
          for (const part of record.parts) {
            if (part.final) continue;
            part.code = WITH_OPERATOR;
            if (code3 === undefined) delete part.description;
            else part.description = code3;
            changed = true;
          }
          if (changed) {
            addTimeline(record, clock.now(), `→ ${WITH_OPERATOR}`, code3);
            feed.emit('message');
          }
        });
      }
      // Parts finishing at the same moment are applied together, then announced once.
      const byTime = new Map<number, { part: PartRecord; code: number }[]>();
      finals.forEach((event, i) => {
        if (event === undefined) return;
        const list = byTime.get(event.at) ?? [];
        list.push({ part: record.parts[i] as PartRecord, code: event.code });
        byTime.set(event.at, list);
      });
      for (const [at, list] of [...byTime].sort((a, b) => a[0] - b[0])) {
        schedule(record, at, () => {
          for (const { part, code } of list) finish(record, part, code);
          feed.emit('message');
        });
      }
    },
  };
}
