import { DELIVERY_STATES, HEX_CHARSETS, INVOKE_ERRORS, SMS_ERRORS } from '@smsv4/core';

/** A fault the admin API can inject that answers with an error code. */
export type DashboardFaultCode = '1010' | '1000';

/** The operations the admin API can inject faults into. */
export type DashboardFaultOperation = 'send' | 'status' | 'lookup' | 'invokeService';

/**
 * The wire facts the page's script needs, read from the core catalogue when the page is rendered
 * and embedded in it as JSON, so the browser code writes none of them itself.
 */
export interface DashboardPageConfig {
  /** Delivery code → `delivered` | `failed` | `pending` (colours of status badges). */
  readonly deliveryOutcomes: Readonly<Record<string, 'delivered' | 'failed' | 'pending'>>;
  /** Final failure codes offered by the scenario form, with their descriptions. */
  readonly failureCodes: readonly { readonly code: number; readonly description: string }[];
  /** Description of each injectable error code, per operation (SMS or Invoke Service table). */
  readonly faultDescriptions: Readonly<Record<DashboardFaultOperation, Readonly<Record<DashboardFaultCode, string>>>>;
  /** Charsets of hex-encoded text, for the inbound form. */
  readonly charsets: readonly string[];
}

/** Builds the page configuration from the core catalogue. */
export function createDashboardPageConfig(): DashboardPageConfig {
  const deliveryOutcomes: Record<string, 'delivered' | 'failed' | 'pending'> = {};
  const failureCodes: { code: number; description: string }[] = [];
  for (const entry of Object.values(DELIVERY_STATES)) {
    if (entry === undefined) continue;
    deliveryOutcomes[String(entry.code)] = entry.outcome;
    // The multipart summaries and "ticket not found" are never the result of a single part.
    if (entry.final && entry.outcome === 'failed' && entry.code !== 830 && entry.code !== 711) {
      failureCodes.push({ code: entry.code, description: entry.description });
    }
  }
  const sms = { '1010': SMS_ERRORS['1010'].description, '1000': SMS_ERRORS['1000'].description };
  const invoke = { '1010': INVOKE_ERRORS[1010].description, '1000': INVOKE_ERRORS[1000].description };
  return {
    deliveryOutcomes,
    failureCodes,
    faultDescriptions: { send: sms, status: sms, lookup: sms, invokeService: invoke },
    charsets: [...HEX_CHARSETS],
  };
}
