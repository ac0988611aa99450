/**
 * The operator table: which mobile operator serves a number (longest matching prefix), with the
 * limits the lookup (`preview`) reports and the sandbox applies when it splits a message. The
 * embedded table is SAMPLE data (made-up prefixes and IDs in four countries), not the real
 * service's; replace it through the `operators` option or a JSON file read with
 * {@link parseOperatorTable}.
 */
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { countryOfNumber } from './countries.js';

/** TypeBox schema of one operator of the table. */
export const OperatorEntrySchema = Type.Object(
  {
    mobileOperatorId: Type.Integer({ minimum: 0, description: 'The operator ID status, receipts and lookups report.' }),
    mobileOperatorName: Type.String({ minLength: 1 }),
    countryCode: Type.Integer({ minimum: 1, maximum: 999, description: 'Country calling code, e.g. 44.' }),
    alpha2Code: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166 alpha-2 code, e.g. GB.' }),
    prefixes: Type.Array(Type.String({ pattern: '^[0-9]{1,15}$' }), {
      minItems: 1,
      description: 'International number prefixes (country code first) served by the operator; the longest match wins.',
    }),
    wireless: Type.Optional(Type.Boolean({ description: 'Mobile numbers (default true); false for landline operators.' })),
    textLength: Type.Integer({ minimum: 1, maximum: 160, description: 'Most GSM characters in one message.' }),
    binaryLength: Type.Integer({ minimum: 1, maximum: 140, description: 'Most octets in one binary message.' }),
    unicodeLength: Type.Integer({ minimum: 1, maximum: 70, description: 'Most UCS-2 characters in one message.' }),
    wapPush: Type.Boolean({ description: 'Whether the operator takes WAP Push.' }),
    maxParts: Type.Integer({ minimum: 1, maximum: 255, description: 'Most parts of a multipart message.' }),
  },
  { additionalProperties: false },
);

/** One operator: its ID, name, country, number prefixes and message limits. */
export type OperatorEntry = Static<typeof OperatorEntrySchema>;

/** TypeBox schema of an operator table file: `{ "operators": [ ... ] }`. */
export const OperatorTableSchema = Type.Object(
  { operators: Type.Array(OperatorEntrySchema) },
  { additionalProperties: false },
);

/** An operator table, as a JSON file holds it. */
export type OperatorTable = Static<typeof OperatorTableSchema>;

const checkTable = TypeCompiler.Compile(OperatorTableSchema);

/** Why an operator table was refused. */
export interface OperatorTableError {
  /** Where (a JSON pointer) and what, e.g. `/operators/0/textLength: Expected integer`. */
  readonly description: string;
}

/**
 * Validates an operator table (a parsed JSON value, or JSON text): the schema, then unique IDs and
 * no prefix claimed twice. Never throws.
 */
export function parseOperatorTable(input: unknown): { ok: true; value: OperatorTable } | { ok: false; error: OperatorTableError } {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, error: { description: `not JSON: ${(e as Error).message}` } };
    }
  }
  if (!checkTable.Check(value)) {
    const first = checkTable.Errors(value).First();
    return { ok: false, error: { description: first === undefined ? 'not an operator table' : `${first.path || '/'}: ${first.message}` } };
  }
  const ids = new Set<number>();
  const prefixes = new Map<string, string>();
  for (const operator of value.operators) {
    if (ids.has(operator.mobileOperatorId)) return { ok: false, error: { description: `mobileOperatorId ${operator.mobileOperatorId} appears twice` } };
    ids.add(operator.mobileOperatorId);
    for (const prefix of operator.prefixes) {
      const owner = prefixes.get(prefix);
      if (owner !== undefined) return { ok: false, error: { description: `prefix ${prefix} belongs to both ${owner} and ${operator.mobileOperatorName}` } };
      prefixes.set(prefix, operator.mobileOperatorName);
      if (!prefix.startsWith(String(operator.countryCode))) {
        return { ok: false, error: { description: `prefix ${prefix} of ${operator.mobileOperatorName} does not start with its country code ${operator.countryCode}` } };
      }
    }
  }
  return { ok: true, value };
}

const op = (
  mobileOperatorId: number,
  mobileOperatorName: string,
  countryCode: number,
  alpha2Code: string,
  prefixes: string[],
  limits: Partial<Pick<OperatorEntry, 'textLength' | 'binaryLength' | 'unicodeLength' | 'wapPush' | 'maxParts' | 'wireless'>> = {},
): OperatorEntry => ({
  mobileOperatorId,
  mobileOperatorName,
  countryCode,
  alpha2Code,
  prefixes,
  textLength: 160,
  binaryLength: 140,
  unicodeLength: 70,
  wapPush: true,
  maxParts: 10,
  ...limits,
});

/**
 * The embedded SAMPLE operator table: three or four operators in each of the four countries the
 * real lookup answers for (US, CA, GB, AU). Prefixes and IDs are made up for testing; the fictional
 * ranges (US/CA `555` exchanges, UK `7700 900`, AU `491 57x`) fall in it.
 */
export const SAMPLE_OPERATORS: OperatorTable = {
  operators: [
    op(383, 'Sample AT&T Mobility', 1, 'US', ['1212', '1415', '1646', '1917'], { maxParts: 10 }),
    op(77, 'Sample Verizon Wireless', 1, 'US', ['1202', '1310', '1617', '1718'], { maxParts: 6 }),
    op(79, 'Sample T-Mobile USA', 1, 'US', ['1206', '1312', '1713', '1305'], { maxParts: 8 }),
    op(1500, 'Sample US Landline', 1, 'US', ['1800', '1888'], { wireless: false, wapPush: false, maxParts: 1 }),
    op(50, 'Sample Rogers Wireless', 1, 'CA', ['1416', '1647', '1905'], { maxParts: 6 }),
    op(51, 'Sample Bell Mobility', 1, 'CA', ['1514', '1613', '1819'], { maxParts: 6 }),
    op(52, 'Sample TELUS Mobility', 1, 'CA', ['1604', '1778', '1403'], { maxParts: 4, wapPush: false }),
    op(900, 'Sample EE', 44, 'GB', ['447700', '44740', '44741', '44750'], { maxParts: 10 }),
    op(901, 'Sample Vodafone UK', 44, 'GB', ['447711', '44742', '44752'], { maxParts: 8 }),
    op(902, 'Sample O2 UK', 44, 'GB', ['447712', '44743', '44753'], { maxParts: 6 }),
    op(903, 'Sample Three UK', 44, 'GB', ['447713', '44744', '44754'], { maxParts: 4, textLength: 153, unicodeLength: 67, binaryLength: 134 }),
    op(1100, 'Sample Telstra', 61, 'AU', ['61400', '61409', '6149157'], { maxParts: 10 }),
    op(1101, 'Sample Optus', 61, 'AU', ['61402', '61411'], { maxParts: 8 }),
    op(1102, 'Sample Vodafone AU', 61, 'AU', ['61403', '61414'], { maxParts: 6, wapPush: false }),
  ],
};

/** The limits used for a number no operator of the table serves (global messaging). */
export interface GlobalRoute {
  readonly textLength: number;
  readonly binaryLength: number;
  readonly unicodeLength: number;
  readonly wapPush: boolean;
  readonly maxParts: number;
}

/** The default global route: standard single-message lengths, WAP Push, up to 10 parts. */
export const DEFAULT_GLOBAL_ROUTE: GlobalRoute = Object.freeze({ textLength: 160, binaryLength: 140, unicodeLength: 70, wapPush: true, maxParts: 10 });

/** Where a number goes: its operator from the table (when one serves it) and its country. */
export interface NumberRoute {
  readonly operator?: OperatorEntry;
  readonly countryCode?: number;
  readonly alpha2Code?: string;
}

/** Looks numbers up in an operator table. */
export interface OperatorDirectory {
  /** The operator serving a number (longest prefix) and its country. */
  route(number: string): NumberRoute;
  /** The operator of an ID, when the table has it. */
  byId(mobileOperatorId: number): OperatorEntry | undefined;
}

/** Builds the lookup structures of a (valid) operator table. */
export function createOperatorDirectory(table: OperatorTable): OperatorDirectory {
  const byPrefix = new Map<string, OperatorEntry>();
  const byId = new Map<number, OperatorEntry>();
  let longest = 0;
  for (const operator of table.operators) {
    byId.set(operator.mobileOperatorId, operator);
    for (const prefix of operator.prefixes) {
      byPrefix.set(prefix, operator);
      longest = Math.max(longest, prefix.length);
    }
  }
  return {
    route(number) {
      for (let length = Math.min(longest, number.length); length > 0; length--) {
        const operator = byPrefix.get(number.slice(0, length));
        if (operator !== undefined) return { operator, countryCode: operator.countryCode, alpha2Code: operator.alpha2Code };
      }
      const country = countryOfNumber(number);
      return country === undefined ? {} : { countryCode: country.countryCode, alpha2Code: country.alpha2Code };
    },
    byId: (id) => byId.get(id),
  };
}
