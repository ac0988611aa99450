/**
 * How the simulated platform handles an accepted message before the operator sees it: which
 * operator, how the content is encoded and split (core's estimator with the operator's limits),
 * what `mlc` does when the content exceeds one part, and the failures the platform itself reports.
 */
import { estimateSegments, type MtRequest, type SegmentEstimate } from '@smsv4/core';
import type { GlobalRoute, NumberRoute, OperatorDirectory } from '../state/operators.js';
import type { MessageView } from '../state/views.js';

/** The platform's decision for one message. */
export interface MessagePlan {
  readonly encoding: MessageView['encoding'];
  /** Each part's text (or hex), in order. */
  readonly parts: readonly string[];
  /** Set when the platform fails the whole message (every part final with `code`). */
  readonly failure?: { readonly code: number; readonly reason: string };
  /** A remark for the message's timeline (e.g. truncation). */
  readonly remark?: string;
}

/** What the planner needs. */
export interface PlanContext {
  readonly operators: OperatorDirectory;
  /** Limits for numbers outside the operator table; `null`: such messages fail with 345. */
  readonly globalRoute: GlobalRoute | null;
  /** Code of a message `mlc` refuses (content over one part with `reject`, over the operator's maximum with `segment`). */
  readonly mlcRejectCode: number;
}

/** The route of a send: the operator the request names when the table has it, else the destination's. */
export function routeOf(request: MtRequest, operators: OperatorDirectory): NumberRoute {
  const route = operators.route(request.destination.address);
  const id = request.destination.mobileOperatorId;
  if (id === undefined) return route;
  const named = operators.byId(id);
  return named === undefined ? route : { operator: named, countryCode: named.countryCode, alpha2Code: named.alpha2Code };
}

const encodingOf = (estimate: SegmentEstimate): MessageView['encoding'] => (estimate.encoding === '8-bit' ? 'binary' : estimate.encoding);

/** Decides encoding, parts and platform failures for an accepted message. */
export function planMessage(request: MtRequest, route: NumberRoute, { operators, globalRoute, mlcRejectCode }: PlanContext): MessagePlan {
  const { message, destination } = request;
  const single = (encoding: MessageView['encoding'], failure?: MessagePlan['failure']): MessagePlan =>
    failure === undefined ? { encoding, parts: [message.content] } : { encoding, parts: [message.content], failure };

  const namedId = destination.mobileOperatorId;
  const unknownId = namedId !== undefined && operators.byId(namedId) === undefined;
  const limits = route.operator ?? globalRoute ?? undefined;

  let estimate: SegmentEstimate | undefined;
  if (message.type === 'text') estimate = estimateSegments(message.content, { operator: limits });
  else if (message.type === 'hexEncodedText' || message.type === 'binary') {
    const result = estimateSegments(message.content, {
      type: message.type,
      ...(message.charset === undefined ? {} : { charset: message.charset }),
      udh: message.udh === true,
      operator: limits,
    });
    estimate = result.ok ? result.value : undefined;
  }
  const encoding: MessageView['encoding'] = estimate === undefined ? (message.type === 'text' ? 'GSM' : 'binary') : encodingOf(estimate);

  if (unknownId) return single(encoding, { code: 341, reason: `mobileOperatorId ${namedId} is not in the operator table` });
  if (limits === undefined) return single(encoding, { code: 345, reason: 'no operator of the table serves the destination and global messaging is off' });
  // WAP Push content is the link text of one push message.
  if (message.type === 'wapPush' || estimate === undefined) return single(encoding);
  if (estimate.fits) return { encoding, parts: estimate.parts };

  const mlc = message.mlc ?? 'reject';
  if (mlc === 'truncate') {
    const { content, units } = estimate.mlc.truncate;
    return { encoding, parts: [content], remark: `truncated to ${units} ${estimate.unit}s (mlc truncate)` };
  }
  if (mlc === 'segment') {
    if (estimate.mlc.segment.accepted) return { encoding, parts: estimate.parts };
    return single(encoding, { code: mlcRejectCode, reason: `${estimate.segments} parts exceed the operator's maximum of ${limits.maxParts} (mlc segment)` });
  }
  return single(encoding, { code: mlcRejectCode, reason: `content needs ${estimate.segments} parts and mlc is reject` });
}
