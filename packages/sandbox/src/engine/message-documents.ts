/**
 * The documents a stored message is shown as: its status (`mtStatus`), the receipt of one of its
 * parts (`deliveryReceipt`) and its admin view. Wire shapes and descriptions come from core.
 */
import { deliveryState, formatTimestamp, summarizeMultipart, type DeliveryReceipt, type MtStatus } from '@smsv4/core';
import type { MessageRecord, PartRecord } from '../state/store.js';
import { redactUrl } from './callback-url.js';
import { timelineView } from '../state/store.js';
import type { MessageView } from '../state/views.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** The catalogue's description of a code, when it has one. */
export function describeCode(code: number): string | undefined {
  return deliveryState(code)?.description;
}

/** Whether a final code means delivered (0 and 4). */
export function isDelivered(code: number): boolean {
  return deliveryState(code)?.outcome === 'delivered';
}

/** The top-level code and description: the part's own for one part, the multipart summary for several. */
export function summaryOf(record: MessageRecord): { code: number; description: string } {
  if (record.parts.length === 1) {
    const part = record.parts[0] as PartRecord;
    return { code: part.code, description: part.description ?? describeCode(part.code) ?? '' };
  }
  return summarizeMultipart(record.parts.map((p) => (p.description === undefined ? { code: p.code } : { code: p.code, description: p.description })));
}

function destinationOf(record: MessageRecord): NonNullable<MtStatus['destination']> {
  const { operator, alpha2Code } = record.route;
  return {
    address: record.request.destination.address,
    ...(operator === undefined ? {} : { mobileOperatorId: operator.mobileOperatorId }),
    ...(alpha2Code === undefined ? {} : { alpha2Code }),
  };
}

function sourceOf(record: MessageRecord): MtStatus['source'] {
  const source = record.request.source;
  if (source === undefined) return undefined;
  return { address: source.address, ...(source.ton === undefined ? {} : { ton: source.ton }) };
}

/** The status response of a message: single-part or multipart shape. */
export function mtStatusOf(record: MessageRecord): MtStatus {
  const summary = summaryOf(record);
  const multipart = record.parts.length > 1;
  const single = record.parts[0] as PartRecord;
  const operatorId = record.route.operator?.mobileOperatorId;
  const note1 = record.request.options?.note1;
  const source = sourceOf(record);
  const deliveredAt = multipart ? Math.max(...record.parts.map((p) => p.deliveredAt ?? -Infinity)) : single.deliveredAt;
  return {
    ticketId: record.ticketId,
    ...(deliveredAt !== undefined && Number.isFinite(deliveredAt) && isDelivered(summary.code) ? { deliveryDate: iso(deliveredAt) } : {}),
    code: summary.code,
    ...(summary.description === '' ? {} : { description: summary.description }),
    ...(operatorId === undefined ? {} : { mobileOperatorId: operatorId }),
    ...(note1 === undefined ? {} : { note1 }),
    ...(multipart ? { totalSegments: record.parts.length } : {}),
    destination: destinationOf(record),
    ...(source === undefined ? {} : { source }),
    ...(multipart
      ? {
          segments: record.parts.map((p) => ({
            segmentNumber: p.segmentNumber,
            ...(p.deliveredAt === undefined ? {} : { deliveryDate: iso(p.deliveredAt) }),
            code: p.code,
            ...(p.description === undefined ? {} : { description: p.description }),
          })),
        }
      : {}),
  };
}

/**
 * The receipt of one final part (`segmentNumber` and `totalSegments` only for a multipart
 * message), its `deliveryDate` written at `offset` (`Z`: UTC with milliseconds).
 */
export function deliveryReceiptOf(record: MessageRecord, part: PartRecord, at: number, offset = 'Z'): DeliveryReceipt {
  const multipart = record.parts.length > 1;
  const operatorId = record.route.operator?.mobileOperatorId;
  const { note1, note2 } = record.request.options ?? {};
  const source = sourceOf(record);
  return {
    type: 'final',
    mtStatus: {
      ticketId: record.ticketId,
      deliveryDate: formatTimestamp(part.deliveredAt ?? at, offset),
      ...(multipart ? { segmentNumber: part.segmentNumber, totalSegments: part.totalSegments } : {}),
      code: part.code,
      ...(part.description === undefined ? {} : { description: part.description }),
      ...(note1 === undefined ? {} : { note1 }),
      ...(note2 === undefined ? {} : { note2 }),
      ...(operatorId === undefined ? {} : { mobileOperatorId: operatorId }),
    },
    destination: destinationOf(record),
    ...(source === undefined ? {} : { source }),
  };
}

/** The admin view of a message. */
export function messageView(record: MessageRecord): MessageView {
  const { request } = record;
  return {
    ticketId: record.ticketId,
    accountId: record.accountId,
    submittedAt: iso(record.submittedAt),
    format: record.format,
    destination: request.destination.address,
    ...(request.source === undefined ? {} : { source: request.source.address }),
    type: request.message.type,
    content: request.message.content,
    encoding: record.encoding,
    mlc: request.message.mlc ?? 'reject',
    summary: summaryOf(record),
    ...(record.receiptUrl === undefined ? {} : { receiptUrl: redactUrl(record.receiptUrl) }),
    parts: record.parts.map((p) => ({
      segmentNumber: p.segmentNumber,
      totalSegments: p.totalSegments,
      code: p.code,
      ...(p.description === undefined ? {} : { description: p.description }),
      ...(p.deliveredAt === undefined ? {} : { deliveryDate: iso(p.deliveredAt) }),
      ...(p.text === undefined ? {} : { text: p.text }),
    })),
    timeline: record.timeline.map(timelineView),
  };
}
