/**
 * The flags shared by `segments`, `explain` and `lint`, turned into the options of core's
 * estimator: message type, charset and UDH of hex content, the concatenation reference, national
 * language tables, grapheme clusters and the operator's limits.
 */
import {
  HEX_CHARSETS,
  NATIONAL_LANGUAGES,
  type HexCharset,
  type HexEstimateOptions,
  type NationalLanguage,
  type OperatorLimits,
  type TextEstimateOptions,
} from '@smsv4/core';
import { CliError } from '../cli-error.js';

/** The flags as commander hands them over. */
export interface EstimateFlags {
  readonly type?: string;
  readonly charset?: string;
  readonly udh?: boolean;
  readonly referenceBits?: string;
  readonly national?: string;
  readonly graphemes?: boolean;
  readonly textLength?: string;
  readonly unicodeLength?: string;
  readonly binaryLength?: string;
  readonly maxParts?: string;
}

/** The estimator's options, for text or for hex content. */
export type EstimateOptions = TextEstimateOptions | HexEstimateOptions;

const ESTIMATE_TYPES = ['text', 'hexEncodedText', 'binary'] as const;

/** A positive integer flag, or a usage error naming it. */
export function positiveInteger(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1) throw new CliError('usage', `${flag} must be a positive integer, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** The operator limits given by flags, or `undefined` when none is. */
export function operatorLimits(flags: EstimateFlags): OperatorLimits | undefined {
  const limits: { -readonly [K in keyof OperatorLimits]: OperatorLimits[K] } = {};
  const textLength = positiveInteger(flags.textLength, '--text-length');
  const unicodeLength = positiveInteger(flags.unicodeLength, '--unicode-length');
  const binaryLength = positiveInteger(flags.binaryLength, '--binary-length');
  const maxParts = positiveInteger(flags.maxParts, '--max-parts');
  if (textLength !== undefined) limits.textLength = textLength;
  if (unicodeLength !== undefined) limits.unicodeLength = unicodeLength;
  if (binaryLength !== undefined) limits.binaryLength = binaryLength;
  if (maxParts !== undefined) limits.maxParts = maxParts;
  return Object.keys(limits).length === 0 ? undefined : limits;
}

/** `--national turkish,spanish` → the languages (a usage error for an unknown one). */
export function nationalLanguages(raw: string | undefined): NationalLanguage[] | undefined {
  if (raw === undefined) return undefined;
  const names = raw.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  for (const name of names) {
    if (!(NATIONAL_LANGUAGES as readonly string[]).includes(name)) {
      throw new CliError('usage', `--national takes ${NATIONAL_LANGUAGES.join(', ')}, not ${JSON.stringify(name)}`);
    }
  }
  return names as NationalLanguage[];
}

/** The estimator's options for the flags (a usage error for a bad value). */
export function estimateOptions(flags: EstimateFlags): EstimateOptions {
  const type = flags.type ?? 'text';
  if (!(ESTIMATE_TYPES as readonly string[]).includes(type)) throw new CliError('usage', `--type takes ${ESTIMATE_TYPES.join(', ')}, not ${JSON.stringify(type)}`);
  let referenceBits: 8 | 16 | undefined;
  if (flags.referenceBits !== undefined) {
    if (flags.referenceBits !== '8' && flags.referenceBits !== '16') throw new CliError('usage', `--reference-bits takes 8 or 16, not ${JSON.stringify(flags.referenceBits)}`);
    referenceBits = flags.referenceBits === '8' ? 8 : 16;
  }
  const operator = operatorLimits(flags);
  const common = { ...(referenceBits === undefined ? {} : { referenceBits }), ...(operator === undefined ? {} : { operator }) };
  if (type === 'text') {
    if (flags.charset !== undefined) throw new CliError('usage', '--charset applies to --type hexEncodedText only');
    if (flags.udh === true) throw new CliError('usage', '--udh applies to --type hexEncodedText or binary only');
    const national = nationalLanguages(flags.national);
    return { type: 'text', ...common, ...(national === undefined ? {} : { nationalLanguages: national }), ...(flags.graphemes === true ? { graphemes: true } : {}) };
  }
  if (flags.national !== undefined || flags.graphemes === true) throw new CliError('usage', '--national and --graphemes apply to --type text only');
  let charset: HexCharset | undefined;
  if (type === 'hexEncodedText') {
    if (flags.charset === undefined) throw new CliError('usage', `--type hexEncodedText needs --charset (${HEX_CHARSETS.join(', ')})`);
    if (!(HEX_CHARSETS as readonly string[]).includes(flags.charset)) throw new CliError('usage', `--charset takes ${HEX_CHARSETS.join(', ')}, not ${JSON.stringify(flags.charset)}`);
    charset = flags.charset as HexCharset;
  }
  return { type: type as 'hexEncodedText' | 'binary', ...common, ...(charset === undefined ? {} : { charset }), ...(flags.udh === true ? { udh: true } : {}) };
}
