/** How API answers and failures read, for people and for machines. */
import { deliveryState, timestampInstant, type MtStatus, type Preview } from '@smsv4/core';
import type { SmsApiError } from '@smsv4/transport-fetch';
import type { Colors } from '../terminal/colors.js';

const row = (label: string, value: string): string => `${label.padEnd(14)}${value}\n`;

/** The state label of a delivery code: `final, delivered`, `pending`, or `unknown code`. */
export function stateLabel(code: number): string {
  const state = deliveryState(code);
  if (state === undefined) return 'unknown code';
  return state.final ? `final, ${state.outcome}` : 'pending';
}

function colorCode(code: number, text: string, colors: Colors): string {
  const state = deliveryState(code);
  if (state === undefined) return text;
  return state.outcome === 'delivered' ? colors.green(text) : state.outcome === 'failed' ? colors.red(text) : colors.yellow(text);
}

/** A timestamp as the service wrote it, with its UTC instant beside it when it was written at an offset. */
export function dateText(text: string): string {
  return text.trimEnd().endsWith('Z') ? text : `${text} (${timestampInstant(text)})`;
}

/** A status answer as lines. */
export function formatStatus(status: MtStatus, colors: Colors): string {
  let out = row('Ticket', status.ticketId);
  out += row('Status', `${colorCode(status.code, `${status.code} ${status.description ?? ''}`.trim(), colors)} (${stateLabel(status.code)})`);
  if (status.deliveryDate !== undefined) out += row('Delivered', dateText(status.deliveryDate));
  const { destination, source } = status;
  if (destination !== undefined) {
    const extra = [destination.mobileOperatorId !== undefined && `operator ${destination.mobileOperatorId}`, destination.alpha2Code].filter(Boolean).join(', ');
    out += row('Destination', `${destination.address ?? '?'}${extra === '' ? '' : ` (${extra})`}`);
  }
  if (source !== undefined) out += row('Source', `${source.address ?? '?'}${source.ton === undefined ? '' : ` (ton ${source.ton})`}`);
  if (status.mobileOperatorId !== undefined && status.mobileOperatorId !== destination?.mobileOperatorId) out += row('Operator', String(status.mobileOperatorId));
  if (status.note1 !== undefined) out += row('note1', status.note1);
  if (status.note2 !== undefined) out += row('note2', status.note2);
  if (status.segments !== undefined) {
    out += row('Parts', String(status.totalSegments ?? status.segments.length));
    for (const segment of status.segments) {
      const text = `${segment.code} ${segment.description ?? ''}`.trim();
      out += `  ${String(segment.segmentNumber).padStart(3)}  ${colorCode(segment.code, text, colors)}${segment.deliveryDate === undefined ? '' : `  ${dateText(segment.deliveryDate)}`}\n`;
    }
  }
  return out;
}

/** A lookup answer as lines. */
export function formatPreview(preview: Preview, colors: Colors): string {
  const { destination, mobileOperator } = preview;
  let out = row('Number', destination.phoneNumber);
  const country = [destination.countryCode !== undefined && `+${destination.countryCode}`, destination.alpha2Code].filter(Boolean).join(' ');
  if (country !== '') out += row('Country', country);
  if (destination.wireless !== undefined) out += row('Wireless', destination.wireless ? 'yes' : 'no (landline)');
  out += row('Operator', colors.bold(`${mobileOperator.mobileOperatorName ?? '(no name)'} (${mobileOperator.mobileOperatorId})`));
  const lengths = [
    mobileOperator.textLength !== undefined && `text ${mobileOperator.textLength}`,
    mobileOperator.binaryLength !== undefined && `binary ${mobileOperator.binaryLength}`,
    mobileOperator.unicodeLength !== undefined && `unicode ${mobileOperator.unicodeLength}`,
  ].filter(Boolean);
  if (lengths.length > 0) out += row('Limits', lengths.join(', '));
  if (mobileOperator.wapPush !== undefined) out += row('WAP Push', mobileOperator.wapPush ? 'yes' : 'no');
  return out;
}

/** What a failure of the client becomes in `--json` output. */
export function apiErrorJson(error: SmsApiError): Record<string, unknown> {
  return {
    kind: error.kind,
    operation: error.operation,
    ...(error.code === undefined ? {} : { code: error.code }),
    description: error.description,
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
    retryable: error.retryable,
    reachedService: error.reachedService,
  };
}

/** A failure of the client as one line for standard error. */
export function formatApiError(error: SmsApiError, colors: Colors): string {
  const where = error.kind === 'invalid-request' ? 'refused before it left' : error.kind;
  const code = error.code === undefined ? '' : `${error.code} `;
  const status = error.httpStatus === undefined ? '' : ` (HTTP ${error.httpStatus})`;
  const requestId = error.requestId === undefined ? '' : `\n  request ID ${error.requestId}`;
  const unsure = error.operation === 'send' && error.reachedService === 'unknown' ? '\n  the message may have been sent: check before sending it again' : '';
  return `${colors.red('✖')} ${error.operation}: ${where}: ${colors.bold(`${code}${error.description}`)}${status}${requestId}${unsure}\n`;
}
