/**
 * The members that a status response (`mtStatus`) and a delivery receipt share: the status
 * attributes and the `destination` and `source` children.
 */
import * as Type from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { WireInteger, WirePositiveInteger, WireTicketId, WireTimestamp } from '../resource-codec/wire-types.js';

/**
 * The attributes of a status: `ticketId` and `code` always present, the others when the service
 * knows them. In a receipt they are the attributes of its `mtStatus` element.
 */
export const STATUS_ATTRIBUTES = {
  ticketId: WireTicketId,
  deliveryDate: Type.Optional(WireTimestamp),
  code: WireInteger,
  description: Type.Optional(Type.String()),
  mobileOperatorId: Type.Optional(WireInteger),
  note1: Type.Optional(Type.String()),
  note2: Type.Optional(Type.String()),
  totalSegments: Type.Optional(WirePositiveInteger),
  segmentNumber: Type.Optional(WirePositiveInteger),
};

/** `destination` of a status or receipt (decoders also accept the spelling `alpha2code`). */
export const StatusDestinationSchema = Type.Object({
  address: Type.Optional(Type.String()),
  mobileOperatorId: Type.Optional(WireInteger),
  alpha2Code: Type.Optional(Type.String({ wireAliases: ['alpha2code'] })),
});

/** `destination` of a status or receipt: the handset's number, its operator and country (ISO 3166 alpha-2). */
export type StatusDestination = Static<typeof StatusDestinationSchema>;

/** `source` of a status or receipt. */
export const StatusSourceSchema = Type.Object({
  address: Type.Optional(Type.String()),
  ton: Type.Optional(WireInteger),
});

/** `source` of a status or receipt: the originator and its type of number (1, 3 or 5). */
export type StatusSource = Static<typeof StatusSourceSchema>;
