/**
 * Exact segment estimation: how a message is encoded, how many parts it costs and where each part
 * ends, with the operator's limits and what each `mlc` value would do with it.
 *
 * Text is sent in the GSM 03.38 alphabet when every character is in it (an extension character
 * costs two septets), otherwise in UCS-2 (UTF-16 code units, a character outside the Basic
 * Multilingual Plane costs two). A multipart message carries a concatenation header in every part
 * (6 octets with an 8-bit reference, 7 with a 16-bit one), so parts hold 153 / 152 septets or
 * 67 / 66 code units instead of 160 / 70. An escape pair and a surrogate pair are never split;
 * with `graphemes: true` no grapheme cluster (an emoji sequence, a letter with its combining
 * marks, CR LF) is split either, unless it alone exceeds a part.
 */
import { ok, type Result } from '../result.js';
import { TABLE_LIMIT } from './gsm-alphabet.js';
import { candidateCosts, DEFAULT_COSTS, septetCost, type NationalLanguage, type NationalTables, type SeptetCosts } from './gsm-national.js';
import { concatenationElementOctets, partCapacity, type CapacityUnit, type ReferenceBits } from './capacity.js';
import { decodeHexContent, hexToBytes, type HexCharset, type HexError } from './hex.js';

/** The message types the estimator counts (`wapPush` content is turned into a WAP Push message by the service). */
export type EstimateMessageType = 'text' | 'hexEncodedText' | 'binary';

/** How the parts are encoded: GSM septets, UCS-2 (UTF-16) code units or 8-bit octets. */
export type SmsEncoding = 'GSM' | 'UCS-2' | '8-bit';

/**
 * An operator's limits as the lookup returns them: the single-message lengths (`textLength` in
 * GSM septets, `unicodeLength` in UCS-2 units, `binaryLength` in octets) and the most parts it
 * takes. A length below the standard one (160 / 70 / 140) lowers every part's capacity by the
 * difference; a larger one changes nothing (a part never holds more than 140 octets).
 */
export interface OperatorLimits {
  readonly textLength?: number;
  readonly unicodeLength?: number;
  readonly binaryLength?: number;
  readonly maxParts?: number;
}

interface CommonEstimateOptions {
  /** Width of the concatenation reference: 8 (6-octet header, default) or 16 (7-octet header). */
  readonly referenceBits?: ReferenceBits;
  /** The destination operator's limits. */
  readonly operator?: OperatorLimits;
}

/**
 * The text options of either entry point: the main one names the national languages
 * ({@link TextEstimateOptions}), `@smsv4/core/segments` is given their tables.
 */
export interface TextOptionsOf<L> extends CommonEstimateOptions {
  readonly type?: 'text';
  /**
   * National language shift tables the sender's platform may use: the estimator picks the
   * cheapest combination (default tables included), counting 3 header octets per table.
   */
  readonly nationalLanguages?: readonly L[];
  /** Never split a grapheme cluster across parts (default `false`). */
  readonly graphemes?: boolean;
}

/** Options of {@link estimateSegments} for `text` content, the national languages by name. */
export type TextEstimateOptions = TextOptionsOf<NationalLanguage>;

/**
 * How an entry point's `nationalLanguages` become the combinations of tables the text estimator
 * tries: the main entry point finds names in the registry of every table ({@link BY_NAME}), the
 * `@smsv4/core/segments` entry point is given the tables, so a bundle holds only those passed.
 */
export interface LanguageResolver<L> {
  /** The combinations to try, the default tables first ({@link candidateCosts}); throws a TypeError for what is no language. */
  readonly candidates: (languages: readonly L[]) => SeptetCosts[];
  /** The name of a language (checked by `candidates` first). */
  readonly name: (language: L) => NationalLanguage;
}

/** Languages by name, from the registry of every table: the main entry point's. */
export const BY_NAME: LanguageResolver<NationalLanguage> = { candidates: candidateCosts, name: (language) => language };

/** Options of {@link estimateSegments} for hex content (`hexEncodedText` and `binary`). */
export interface HexEstimateOptions extends CommonEstimateOptions {
  readonly type: 'hexEncodedText' | 'binary';
  /** Charset of `hexEncodedText` content (required for it, ignored for `binary`). */
  readonly charset?: HexCharset;
  /** The content starts with a user data header, repeated in every part (default `false`). */
  readonly udh?: boolean;
}

/** A character that forced UCS-2: where it first appears (UTF-16 index) and how often. */
export interface ForcedCharacter {
  readonly char: string;
  readonly index: number;
  readonly count: number;
}

/** What each `mlc` value would do with the message. */
export interface MlcOutcomes {
  /** `reject`: accepted only when the message fits in one part. */
  readonly reject: { readonly accepted: boolean };
  /** `truncate`: always accepted; sends the first part that fits (`content`, in the input's form). */
  readonly truncate: { readonly accepted: true; readonly truncated: boolean; readonly content: string; readonly units: number };
  /** `segment`: accepted unless the parts exceed the operator's maximum (or 255). */
  readonly segment: { readonly accepted: boolean; readonly segments: number };
}

/** The estimate of a message. */
export interface SegmentEstimate {
  readonly encoding: SmsEncoding;
  /** What `units` and the capacities count. */
  readonly unit: CapacityUnit;
  /** Number of parts (an empty message is one empty part). */
  readonly segments: number;
  /** The parts, in the input's form (text, or the hex substrings): `parts.join('')` is the input. */
  readonly parts: readonly string[];
  /** Units used by each part. */
  readonly partUnits: readonly number[];
  /** Units of the whole content (user data header excluded). */
  readonly units: number;
  /** Capacity of each part as sent (`singlePartCapacity` for one part, else `multipartCapacity`). */
  readonly unitsPerPart: number;
  /** Units left in the last part. */
  readonly unitsLeft: number;
  readonly singlePartCapacity: number;
  readonly multipartCapacity: number;
  /** User data header octets in each part as sent (length octet included; 0 for none). */
  readonly headerOctets: number;
  /**
   * The characters that forced UCS-2, each once (empty unless `encoding` is `UCS-2` for text): those
   * no enabled table holds or, when each is in some table but no combination holds them all, those
   * outside the default alphabet.
   */
  readonly ucs2Characters: readonly ForcedCharacter[];
  /** The national language tables used, when any. */
  readonly nationalTables?: NationalTables;
  /**
   * UTF-16 indexes of the lone surrogates of a text (present only when there are some): half of a
   * surrogate pair is no character. The parts count them as code units, but no request can carry
   * them (`decodeMtRequest` refuses the content, `encodeHex` throws): fix the text first.
   */
  readonly loneSurrogates?: readonly number[];
  /** With `graphemes: true`: the count when clusters may be split, and whether keeping them whole changed it. */
  readonly graphemes?: { readonly segmentsWithoutGraphemes: number; readonly changed: boolean };
  /** Whether the message fits in one part. */
  readonly fits: boolean;
  /** The most parts the operator takes, when known. */
  readonly maxParts?: number;
  readonly mlc: MlcOutcomes;
}

/** The most parts a concatenated message can have (the total is one octet). */
export const MAX_CONCATENATED_PARTS = 255;

/** Standard single-part capacities, for operator limits. */
const STANDARD_SINGLE: { readonly [U in CapacityUnit]: number } = { septet: 160, 'utf16-unit': 70, octet: 140 };

/**
 * Estimates the encoding, parts and cost of a message. For `text` (the default) it returns the
 * estimate; for hex content (`type: 'hexEncodedText'` with a `charset`, or `'binary'`) the content
 * is decoded first and a {@link HexError} is returned when it does not decode. Hex content counts
 * the decoded octets: GSM septets (one per octet, `1B xx` pairs kept together), UTF-16 code units
 * (two octets, surrogate pairs kept together), Latin-1, UTF-8 (sequences kept together) and binary
 * octets (140 in one part, 134 per part of a multipart message).
 * @throws TypeError on misuse: a non-string content, an unknown type, charset or national
 *   language, a missing charset, or an operator limit that is not a positive integer or leaves no room.
 */
export function estimateSegments(text: string, options?: TextEstimateOptions): SegmentEstimate;
export function estimateSegments(content: string, options: HexEstimateOptions): Result<SegmentEstimate, HexError>;
export function estimateSegments(
  content: string,
  options: TextEstimateOptions | HexEstimateOptions = {},
): SegmentEstimate | Result<SegmentEstimate, HexError> {
  if (typeof content !== 'string') throw new TypeError('estimateSegments: content must be a string');
  if (options === null || typeof options !== 'object') throw new TypeError('estimateSegments: options must be an object');
  const type = options.type ?? 'text';
  if (type === 'text') return estimateTextWith(content, options as TextEstimateOptions, BY_NAME);
  if (type === 'hexEncodedText' || type === 'binary') return estimateHex(content, options as HexEstimateOptions);
  throw new TypeError(`estimateSegments: type must be text, hexEncodedText or binary, not ${String(type)}`);
}

// ---------------------------------------------------------------------------------------------
// Capacities and outcomes

interface Capacities {
  readonly single: number;
  readonly multi: number;
  readonly singleHeader: number;
  readonly multiHeader: number;
}

function checkLimit(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`estimateSegments: operator.${name} must be a positive integer, not ${String(value)}`);
  return value;
}

function limitFor(unit: CapacityUnit, encoding: SmsEncoding, operator: OperatorLimits | undefined): number | undefined {
  if (operator === undefined) return undefined;
  if (encoding === 'GSM') return checkLimit(operator.textLength, 'textLength');
  if (encoding === 'UCS-2') return checkLimit(operator.unicodeLength, 'unicodeLength');
  return unit === 'octet' ? checkLimit(operator.binaryLength, 'binaryLength') : undefined;
}

/**
 * Part capacities for a header of `baseHeader` octets before concatenation (length octet
 * included when non-zero), lowered by an operator limit below the standard.
 */
function capacities(unit: CapacityUnit, encoding: SmsEncoding, baseHeader: number, referenceBits: ReferenceBits, operator: OperatorLimits | undefined): Capacities {
  const singleHeader = baseHeader;
  const multiHeader = (baseHeader === 0 ? 1 : baseHeader) + concatenationElementOctets(referenceBits);
  const limit = limitFor(unit, encoding, operator);
  const cut = limit === undefined ? 0 : Math.max(0, STANDARD_SINGLE[unit] - limit);
  const single = partCapacity(unit, singleHeader) - cut;
  const multi = partCapacity(unit, multiHeader) - cut;
  if (multi < 1 || single < 1) throw new TypeError(`estimateSegments: the operator limit ${String(limit)} leaves no room in a part`);
  return { single, multi, singleHeader, multiHeader };
}

function checkOptions(referenceBits: unknown, operator: unknown): void {
  if (referenceBits !== 8 && referenceBits !== 16) throw new TypeError(`estimateSegments: referenceBits must be 8 or 16, not ${String(referenceBits)}`);
  if (operator !== undefined && (operator === null || typeof operator !== 'object')) throw new TypeError('estimateSegments: operator must be an object');
}

interface Split {
  readonly parts: string[];
  readonly partUnits: number[];
}

function finish(
  encoding: SmsEncoding,
  unit: CapacityUnit,
  units: number,
  caps: Capacities,
  split: Split,
  truncated: { content: string; units: number },
  operator: OperatorLimits | undefined,
  extra: {
    /**
     * A text sent in UCS-2: its forced characters are listed on first read (a caller that never
     * reads them never pays), against these enabled national tables, or the default ones (`true`).
     */
    forcedAgainst?: readonly SeptetCosts[] | true;
    nationalTables?: NationalTables | undefined;
    graphemes?: { segmentsWithoutGraphemes: number; changed: boolean } | undefined;
    loneSurrogates?: readonly number[] | undefined;
  },
): SegmentEstimate {
  const segments = split.parts.length;
  const single = segments === 1;
  const unitsPerPart = single ? caps.single : caps.multi;
  const maxParts = checkLimit(operator?.maxParts, 'maxParts');
  const fits = single;
  // Members in the documented order, the optional ones set only when present (assignments: a
  // spread in an object literal is far slower for engines).
  const estimate = {
    encoding,
    unit,
    segments,
    parts: split.parts,
    partUnits: split.partUnits,
    units,
    unitsPerPart,
    unitsLeft: unitsPerPart - (split.partUnits[segments - 1] as number),
    singlePartCapacity: caps.single,
    multipartCapacity: caps.multi,
    headerOctets: single ? caps.singleHeader : caps.multiHeader,
  } as { -readonly [K in keyof SegmentEstimate]?: SegmentEstimate[K] };
  const { forcedAgainst } = extra;
  if (forcedAgainst === undefined) estimate.ucs2Characters = NO_CHARS;
  else {
    // Listing the characters that forced UCS-2 costs a map update per character, so it happens on
    // first read: an enumerable accessor (JSON, spreading and deep equality see a plain array), on
    // UCS-2 estimates of text only. Every estimate shares the accessor, which lists them from the
    // parts (their join is the text) and the tables in a hidden member: an accessor made per
    // estimate, or put in place of a member, would give each estimate a shape of its own, and
    // creating one would cost several times more.
    if (forcedAgainst !== true) Object.defineProperty(estimate, FORCED_TABLES, { value: forcedAgainst });
    Object.defineProperty(estimate, 'ucs2Characters', FORCED_ACCESSOR);
  }
  if (extra.nationalTables !== undefined) estimate.nationalTables = extra.nationalTables;
  if (extra.graphemes !== undefined) estimate.graphemes = extra.graphemes;
  estimate.fits = fits;
  if (maxParts !== undefined) estimate.maxParts = maxParts;
  estimate.mlc = {
    reject: { accepted: fits },
    truncate: { accepted: true, truncated: !fits, content: truncated.content, units: truncated.units },
    segment: { accepted: segments <= Math.min(maxParts ?? MAX_CONCATENATED_PARTS, MAX_CONCATENATED_PARTS), segments },
  };
  // Set after creation, and only on the rare estimates that have them: no cost for the others.
  if (extra.loneSurrogates !== undefined) estimate.loneSurrogates = extra.loneSurrogates;
  return estimate as SegmentEstimate;
}

// ---------------------------------------------------------------------------------------------
// Text

const NO_CHARS: readonly ForcedCharacter[] = Object.freeze([]);

/** Hidden members of a UCS-2 estimate of text: the enabled national tables (absent for the default ones), the list once made. */
const FORCED_TABLES = Symbol('nationalTables');
const FORCED_LIST = Symbol('ucs2Characters');

interface LazyForced {
  readonly parts: readonly string[];
  readonly [FORCED_TABLES]?: readonly SeptetCosts[];
  readonly [FORCED_LIST]?: readonly ForcedCharacter[];
}

/** The accessor of every UCS-2 estimate of text: lists the forced characters on first read, then keeps the list. */
const FORCED_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyForced): readonly ForcedCharacter[] {
    let list = this[FORCED_LIST];
    if (list === undefined) {
      list = forcedCharacters(this.parts.join(''), this[FORCED_TABLES]);
      // Kept for the next read (not on a frozen estimate, which lists them again).
      Reflect.defineProperty(this, FORCED_LIST, { value: list });
    }
    return list;
  },
};

/** The estimate of a text, its national languages resolved by `languages`: what both entry points' `estimateSegments` run. */
export function estimateTextWith<L>(text: string, options: TextOptionsOf<L>, languages: LanguageResolver<L>): SegmentEstimate {
  const { referenceBits = 8, operator, nationalLanguages, graphemes = false } = options;
  checkOptions(referenceBits, operator);
  if (nationalLanguages !== undefined && !Array.isArray(nationalLanguages)) throw new TypeError('estimateSegments: nationalLanguages must be an array');
  const boundaries = graphemes ? clusterEnds(text) : undefined;

  if (nationalLanguages !== undefined && nationalLanguages.length > 0) {
    const candidates = languages.candidates(nationalLanguages);
    const best = bestNational(text, candidates, referenceBits, operator, boundaries);
    const gsm = best === undefined ? undefined : gsmEstimate(text, best.costs, best.caps, operator, boundaries);
    if (gsm !== undefined) return gsm;
    return ucs2Estimate(text, referenceBits, operator, boundaries, candidates);
  }

  // GSM with the default tables when every character is in them (one pass), else UCS-2.
  const gsm = gsmEstimate(text, DEFAULT_COSTS, capacities('septet', 'GSM', 0, referenceBits, operator), operator, boundaries);
  return gsm ?? ucs2Estimate(text, referenceBits, operator, boundaries, undefined);
}

/** The estimate of a text in GSM with the given tables, or `undefined` when a character is not in them. */
function gsmEstimate(
  text: string,
  costs: SeptetCosts,
  caps: Capacities,
  operator: OperatorLimits | undefined,
  boundaries: Int32Array | undefined,
): SegmentEstimate | undefined {
  const scan = scanGsm(text, costs, caps.multi, caps.single);
  if (scan === undefined) return undefined;
  const national = costs.tables.locking === undefined && costs.tables.single === undefined ? undefined : costs.tables;
  const { septets } = scan;
  if (septets <= caps.single) {
    const graphemes = boundaries === undefined ? undefined : { segmentsWithoutGraphemes: 1, changed: false };
    return finish('GSM', 'septet', septets, caps, { parts: [text], partUnits: [septets] }, { content: text, units: septets }, operator, { nationalTables: national, graphemes });
  }
  if (boundaries === undefined) {
    const parts: string[] = [];
    let start = 0;
    for (const end of scan.ends) {
      parts.push(text.slice(start, end));
      start = end;
    }
    const truncated = { content: text.slice(0, scan.truncateEnd), units: scan.truncateUnits };
    return finish('GSM', 'septet', septets, caps, { parts, partUnits: scan.partUnits }, truncated, operator, { nationalTables: national });
  }
  const cost = (i: number): number => septetCost(costs, text.charCodeAt(i));
  const split = splitClusters(text, boundaries, cost, widthOne, caps.multi);
  const truncated = firstPart(splitClusters(text, boundaries, cost, widthOne, caps.single, true));
  const plain = scan.ends.length;
  return finish('GSM', 'septet', septets, caps, split, truncated, operator, {
    nationalTables: national,
    graphemes: { segmentsWithoutGraphemes: plain, changed: plain !== split.parts.length },
  });
}

interface GsmScan {
  readonly septets: number;
  /** End (exclusive index) and septets of each part when split at the multipart capacity. */
  readonly ends: number[];
  readonly partUnits: number[];
  /** End and septets of the longest prefix that fits one part (what `truncate` keeps). */
  readonly truncateEnd: number;
  readonly truncateUnits: number;
}

/**
 * One pass over a text in GSM: its septets, where greedy parts of `multi` septets end (a character,
 * escape pairs included, is never split) and the prefix that fits `single` septets; `undefined`
 * when a character is not in the tables.
 */
function scanGsm(text: string, costs: SeptetCosts, multi: number, single: number): GsmScan | undefined {
  const low = costs.low;
  const high = costs.high;
  const ends: number[] = [];
  const partUnits: number[] = [];
  let used = 0;
  let total = 0;
  let truncateEnd = -1;
  let truncateUnits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const cost = c < TABLE_LIMIT ? (low[c] as number) : (high.get(c) ?? 0);
    if (cost === 0) return undefined;
    if (used + cost > multi) {
      ends.push(i);
      partUnits.push(used);
      used = 0;
    }
    if (truncateEnd < 0 && total + cost > single) {
      truncateEnd = i;
      truncateUnits = total;
    }
    used += cost;
    total += cost;
  }
  ends.push(text.length);
  partUnits.push(used);
  return truncateEnd < 0
    ? { septets: total, ends, partUnits, truncateEnd: text.length, truncateUnits: total }
    : { septets: total, ends, partUnits, truncateEnd, truncateUnits };
}

function ucs2Estimate(
  text: string,
  referenceBits: ReferenceBits,
  operator: OperatorLimits | undefined,
  boundaries: Int32Array | undefined,
  candidates: readonly SeptetCosts[] | undefined,
): SegmentEstimate {
  const caps = capacities('utf16-unit', 'UCS-2', 0, referenceBits, operator);
  const units = text.length;
  let split: Split;
  let graphemes: { segmentsWithoutGraphemes: number; changed: boolean } | undefined;
  if (units <= caps.single) split = { parts: [text], partUnits: [units] };
  else if (boundaries === undefined) split = splitUcs2(text, caps.multi, false);
  else {
    split = splitClusters(text, boundaries, widthOne, surrogateWidth, caps.multi);
    const plain = splitUcs2(text, caps.multi, false).parts.length;
    graphemes = { segmentsWithoutGraphemes: plain, changed: plain !== split.parts.length };
  }
  if (boundaries !== undefined && graphemes === undefined) graphemes = { segmentsWithoutGraphemes: 1, changed: false };
  const truncated =
    split.parts.length === 1
      ? { content: text, units }
      : firstPart(boundaries === undefined ? splitUcs2(text, caps.single, true) : splitClusters(text, boundaries, widthOne, surrogateWidth, caps.single, true));
  return finish('UCS-2', 'utf16-unit', units, caps, split, truncated, operator, {
    forcedAgainst: candidates ?? true,
    graphemes,
    // A native check: well-formed text (nearly all of it) pays one pass in the engine.
    loneSurrogates: text.isWellFormed() ? undefined : loneSurrogateIndexes(text),
  });
}

/** UTF-16 indexes of the lone surrogates of a text. */
function loneSurrogateIndexes(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (surrogateWidth(text, i) === 2) i++;
    else out.push(i);
  }
  return out;
}

const firstPart = (split: Split): { content: string; units: number } => ({ content: split.parts[0] as string, units: split.partUnits[0] as number });

const widthOne = (): number => 1;

function surrogateWidth(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/**
 * The characters no candidate table holds (the default tables when `candidates` is undefined), each
 * once, in order of first appearance, with its first index and its number of occurrences. When
 * every character is in some enabled table but no combination of tables holds them all, the
 * characters outside the default alphabet.
 */
function forcedCharacters(text: string, candidates: readonly SeptetCosts[] | undefined): ForcedCharacter[] {
  const found = charactersOutside(text, candidates);
  // Each character is in some enabled table, but no combination holds them all: name those outside the default ones.
  return found.length === 0 && candidates !== undefined ? charactersOutside(text, undefined) : found;
}

function charactersOutside(text: string, candidates: readonly SeptetCosts[] | undefined): ForcedCharacter[] {
  const seen = new Map<number, { char: string; index: number; count: number }>();
  const low = DEFAULT_COSTS.low;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < TABLE_LIMIT ? low[c] !== 0 : c === 0x20ac) continue;
    if (candidates !== undefined && candidates.some((k) => septetCost(k, c) !== 0)) continue;
    const w = surrogateWidth(text, i);
    const key = w === 2 ? 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00) : c;
    const entry = seen.get(key);
    if (entry === undefined) seen.set(key, { char: text.slice(i, i + w), index: i, count: 1 });
    else entry.count++;
    i += w - 1;
  }
  return [...seen.values()];
}

/** Splits text greedily into parts of at most `cap` UTF-16 code units, never splitting a surrogate pair. */
function splitUcs2(text: string, cap: number, firstOnly: boolean): Split {
  const parts: string[] = [];
  const partUnits: number[] = [];
  const n = text.length;
  let start = 0;
  while (n - start > cap) {
    let end = start + cap;
    // Do not end a part between a high and a low surrogate.
    const c = text.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(end);
      if (d >= 0xdc00 && d <= 0xdfff) end--;
    }
    parts.push(text.slice(start, end));
    partUnits.push(end - start);
    if (firstOnly) return { parts, partUnits };
    start = end;
  }
  parts.push(text.slice(start));
  partUnits.push(n - start);
  return { parts, partUnits };
}

/** Ends (exclusive UTF-16 indexes) of the grapheme clusters of a text. */
function clusterEnds(text: string): Int32Array {
  // Created per call, and only when grapheme clusters are asked for: no module state, no cost otherwise.
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const ends: number[] = [];
  for (const { index, segment } of segmenter.segment(text)) ends.push(index + segment.length);
  return Int32Array.from(ends);
}

/**
 * Splits text greedily at cluster ends into parts of at most `cap` units; a cluster larger than a
 * part is split at character boundaries (`width` keeps surrogate pairs together).
 */
function splitClusters(
  text: string,
  ends: Int32Array,
  cost: (i: number) => number,
  width: (text: string, i: number) => number,
  cap: number,
  firstOnly = false,
): Split {
  const parts: string[] = [];
  const partUnits: number[] = [];
  let start = 0;
  let used = 0;
  let i = 0;
  for (let k = 0; k < ends.length; k++) {
    const end = ends[k] as number;
    let clusterCost = 0;
    for (let j = i; j < end; j++) clusterCost += cost(j);
    if (used + clusterCost <= cap) {
      used += clusterCost;
      i = end;
      continue;
    }
    if (clusterCost <= cap) {
      parts.push(text.slice(start, i));
      partUnits.push(used);
      if (firstOnly) return { parts, partUnits };
      start = i;
      used = clusterCost;
      i = end;
      continue;
    }
    // A cluster larger than a part: split it at character boundaries.
    while (i < end) {
      const w = width(text, i);
      let cw = 0;
      for (let j = i; j < i + w; j++) cw += cost(j);
      if (used + cw > cap) {
        parts.push(text.slice(start, i));
        partUnits.push(used);
        if (firstOnly) return { parts, partUnits };
        start = i;
        used = 0;
      }
      used += cw;
      i += w;
    }
  }
  parts.push(text.slice(start));
  partUnits.push(used);
  return { parts, partUnits };
}

interface NationalChoice {
  readonly costs: SeptetCosts;
  readonly caps: Capacities;
  readonly segments: number;
  /** Units left in the last part. */
  readonly left: number;
  /** National tables in use (0, 1 or 2). */
  readonly tableCount: number;
}

/** How a text fares with one combination of tables, or `undefined` when a character is not in them. */
function evaluateTables(
  text: string,
  costs: SeptetCosts,
  referenceBits: ReferenceBits,
  operator: OperatorLimits | undefined,
  boundaries: Int32Array | undefined,
): NationalChoice | undefined {
  const base = costs.headerOctets === 0 ? 0 : 1 + costs.headerOctets;
  const caps = capacities('septet', 'GSM', base, referenceBits, operator);
  const scan = scanGsm(text, costs, caps.multi, caps.single);
  if (scan === undefined) return undefined;
  const tableCount = costs.headerOctets / 3;
  if (scan.septets <= caps.single) return { costs, caps, segments: 1, left: caps.single - scan.septets, tableCount };
  const partUnits =
    boundaries === undefined
      ? scan.partUnits
      : splitClusters(text, boundaries, (i) => septetCost(costs, text.charCodeAt(i)), widthOne, caps.multi).partUnits;
  return { costs, caps, segments: partUnits.length, left: caps.multi - (partUnits[partUnits.length - 1] as number), tableCount };
}

/** Whether `a` is a better choice than `b`: fewest parts, then fewest tables, then most units left. */
function better(a: NationalChoice, b: NationalChoice): boolean {
  if (a.segments !== b.segments) return a.segments < b.segments;
  if (a.tableCount !== b.tableCount) return a.tableCount < b.tableCount;
  return a.left > b.left;
}

/** The cheapest combination of tables that encodes the text (the first of equals, in candidate order). */
function bestNational(
  text: string,
  candidates: readonly SeptetCosts[],
  referenceBits: ReferenceBits,
  operator: OperatorLimits | undefined,
  boundaries: Int32Array | undefined,
): NationalChoice | undefined {
  let best: NationalChoice | undefined;
  for (const costs of candidates) {
    const choice = evaluateTables(text, costs, referenceBits, operator, boundaries);
    if (choice !== undefined && (best === undefined || better(choice, best))) best = choice;
  }
  return best;
}

/** How a text fares in GSM with one combination of tables (see {@link rankTables}). */
export interface TablesOutcome {
  /** The tables (`{}`: the default alphabet and extension table). */
  readonly tables: NationalTables;
  readonly segments: number;
  /** National tables in use (0, 1 or 2), each 3 header octets in every part. */
  readonly tableCount: number;
  /** Septets left in the last part. */
  readonly unitsLeft: number;
  /** User data header octets in each part as sent. */
  readonly headerOctets: number;
}

/**
 * Every combination of the enabled tables that can encode a text, best first, ranked as
 * {@link estimateSegments} chooses (fewest parts, then fewest tables, then most septets left; equals
 * in candidate order): the first one is the estimate's choice. Empty when none can (UCS-2).
 * @throws TypeError on misuse, as {@link estimateSegments}.
 */
export function rankTables(text: string, options: TextEstimateOptions = {}): TablesOutcome[] {
  if (typeof text !== 'string') throw new TypeError('rankTables: text must be a string');
  return rankTablesWith(text, options, BY_NAME);
}

/** {@link rankTables} with the national languages resolved by `languages`. */
export function rankTablesWith<L>(text: string, options: TextOptionsOf<L>, languages: LanguageResolver<L>): TablesOutcome[] {
  const { referenceBits = 8, operator, nationalLanguages = [], graphemes = false } = options;
  checkOptions(referenceBits, operator);
  if (!Array.isArray(nationalLanguages)) throw new TypeError('estimateSegments: nationalLanguages must be an array');
  const boundaries = graphemes ? clusterEnds(text) : undefined;
  const choices: NationalChoice[] = [];
  for (const costs of languages.candidates(nationalLanguages)) {
    const choice = evaluateTables(text, costs, referenceBits, operator, boundaries);
    if (choice === undefined) continue;
    // Insert after every choice at least as good: a stable order, the first being bestNational's.
    let at = choices.length;
    while (at > 0 && better(choice, choices[at - 1] as NationalChoice)) at--;
    choices.splice(at, 0, choice);
  }
  return choices.map((c) => ({
    tables: c.costs.tables,
    segments: c.segments,
    tableCount: c.tableCount,
    unitsLeft: c.left,
    headerOctets: c.segments === 1 ? c.caps.singleHeader : c.caps.multiHeader,
  }));
}

// ---------------------------------------------------------------------------------------------
// Hex content

function estimateHex(hex: string, options: HexEstimateOptions): Result<SegmentEstimate, HexError> {
  const { type, charset, udh = false, referenceBits = 8, operator } = options;
  checkOptions(referenceBits, operator);
  const textOnly = options as unknown as TextEstimateOptions;
  if (textOnly.graphemes !== undefined || textOnly.nationalLanguages !== undefined) {
    throw new TypeError('estimateSegments: graphemes and nationalLanguages apply to text content only');
  }
  const cs = type === 'binary' ? 'binary' : charset;
  if (cs === undefined) throw new TypeError('estimateSegments: hexEncodedText needs a charset');
  const decoded = decodeHexContent(hex, cs, { udh });
  if (!decoded.ok) return decoded;
  const octets = hexToBytes(hex);
  if (!octets.ok) return octets;
  const bytes = octets.value;
  const headerLength = decoded.value.udh?.length ?? 0;
  const payloadOctets = bytes.length - headerLength;
  let encoding: SmsEncoding;
  let unit: CapacityUnit;
  let units: number;
  let canEnd: (i: number) => boolean;
  switch (cs) {
    case 'GSM':
      encoding = 'GSM';
      unit = 'septet';
      units = payloadOctets;
      canEnd = (i) => bytes[i - 1] !== 0x1b;
      break;
    case 'UTF-16':
      encoding = 'UCS-2';
      unit = 'utf16-unit';
      units = payloadOctets >> 1;
      canEnd = (i) => {
        const hi = bytes[i - 2] as number;
        return (i - headerLength) % 2 === 0 && !(hi >= 0xd8 && hi <= 0xdb);
      };
      break;
    case 'UTF-8':
      encoding = '8-bit';
      unit = 'octet';
      units = payloadOctets;
      canEnd = (i) => ((bytes[i] as number) & 0xc0) !== 0x80;
      break;
    default:
      encoding = '8-bit';
      unit = 'octet';
      units = payloadOctets;
      canEnd = () => true;
  }
  const caps = capacities(unit, encoding, headerLength, referenceBits, operator);
  const octetsPerUnit = unit === 'utf16-unit' ? 2 : 1;
  const cut = (cap: number, firstOnly: boolean): Split => {
    const parts: string[] = [];
    const partUnits: number[] = [];
    let start = headerLength;
    const capOctets = cap * octetsPerUnit;
    while (bytes.length - start > capOctets) {
      let end = start + capOctets;
      while (end > start + 1 && !canEnd(end)) end--;
      parts.push(hex.slice(parts.length === 0 ? 0 : 2 * start, 2 * end));
      partUnits.push((end - start) / octetsPerUnit);
      if (firstOnly) return { parts, partUnits };
      start = end;
    }
    parts.push(hex.slice(parts.length === 0 ? 0 : 2 * start));
    partUnits.push((bytes.length - start) / octetsPerUnit);
    return { parts, partUnits };
  };
  const split = units <= caps.single ? { parts: [hex], partUnits: [units] } : cut(caps.multi, false);
  const truncated = split.parts.length === 1 ? { content: hex, units } : firstPart(cut(caps.single, true));
  return ok(finish(encoding, unit, units, caps, split, truncated, operator, {}));
}
