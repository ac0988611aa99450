/**
 * Settings of a running sandbox that the dashboard, the admin API and `sandbox.updateSettings`
 * change while it runs (unlike its options, fixed at creation). `reset` keeps them.
 */
import { parseUtcOffset } from '@smsv4/core';

/** What can be changed while the sandbox runs. */
export interface SandboxSettings {
  /**
   * The time zone of the timestamps in the callbacks the sandbox posts (`deliveryDate` of receipts,
   * `submittedDate` of inbound messages): `Z` (UTC with milliseconds, the default and what the spec
   * shows) or an offset `±hh:mm` up to ±14:00, as the real service also writes
   * (`2015-08-29T15:10:03.029-05:00`). Status responses stay in UTC.
   */
  callbackTimestampOffset: string;
}

/** The settings of a new sandbox. */
export const DEFAULT_SETTINGS: Readonly<SandboxSettings> = Object.freeze({ callbackTimestampOffset: 'Z' });

/** Why a settings change was refused. */
export interface SettingsError {
  readonly code: 'invalid-settings';
  readonly description: string;
}

const fail = (description: string): { ok: false; error: SettingsError } => ({ ok: false, error: { code: 'invalid-settings', description } });

/**
 * Checks a change of settings (a parsed JSON body may hold anything): an object of known members,
 * each valid. Returns the members to change.
 */
export function parseSettingsPatch(value: unknown): { ok: true; value: Partial<SandboxSettings> } | { ok: false; error: SettingsError } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('the settings must be a JSON object');
  const unknown = Object.keys(value).find((key) => key !== 'callbackTimestampOffset');
  if (unknown !== undefined) return fail(`unknown setting ${JSON.stringify(unknown)}`);
  const patch: Partial<SandboxSettings> = {};
  if (Object.hasOwn(value, 'callbackTimestampOffset')) {
    const offset = (value as { callbackTimestampOffset: unknown }).callbackTimestampOffset;
    const read = typeof offset === 'string' ? parseUtcOffset(offset) : undefined;
    if (read === undefined || !read.ok) {
      return fail(`callbackTimestampOffset must be Z or an offset ±hh:mm up to ±14:00${read === undefined ? '' : ` (${read.error.message})`}`);
    }
    patch.callbackTimestampOffset = offset as string;
  }
  return { ok: true, value: patch };
}
