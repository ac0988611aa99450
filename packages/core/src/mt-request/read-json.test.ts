import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listFixtures, loadFixture } from '../../test/fixtures.js';
import { isJsonObject, own, parseStrictJson } from '../json/strict-json.js';
import { decodeMtRequest } from './codec.js';
import { readMtRequestJson } from './read-json.js';
import type { MtRequest } from './schema.js';
import { checkMtRequest } from './validate.js';
import { runs } from '../../test/property-runs.js';

/** The general path of `decodeMtRequest` for JSON: strict parse, the root member, the ordered rules. */
function general(text: string): MtRequest | undefined {
  const parsed = parseStrictJson(text);
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const mt = own(parsed.value, 'mobileTerminate');
  if (!isJsonObject(mt)) return undefined;
  const checked = checkMtRequest(mt);
  return checked.ok ? checked.value : undefined;
}

/** What the fast path must answer: the general path's value for any text without a backslash, else nothing. */
const expected = (text: string): MtRequest | undefined => (text.includes('\\') ? undefined : general(text));

const requests = listFixtures('mt-request/valid/json').map((path) => JSON.parse(loadFixture(path)) as Record<string, unknown>);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Paths of every object in a value, depth first. */
function objectPaths(value: Json, path: string[] = [], out: string[][] = []): string[][] {
  if (typeof value !== 'object' || value === null) return out;
  if (!Array.isArray(value)) out.push(path);
  for (const [key, item] of Object.entries(value)) objectPaths(item as Json, [...path, key], out);
  return out;
}

function at(value: Json, path: readonly string[]): Json | undefined {
  let node: Json | undefined = value;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Record<string, Json>)[key] : undefined;
  return node;
}

/**
 * JSON text of a value, members in order, with `repeat` written twice in the object at `repeatIn`
 * (first with `decoy`, so that `JSON.parse` gives the same value with or without the repetition).
 */
function write(value: Json, space: string, repeatIn: string | undefined, repeat: string | undefined, decoy: Json, path = ''): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const gap = space === '' ? '' : `\n${space}`;
  if (Array.isArray(value)) return `[${value.map((item, i) => write(item, space, repeatIn, repeat, decoy, `${path}/${i}`)).join(`,${gap}`)}]`;
  const members = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${space === '' ? '' : ' '}${write(item, space, repeatIn, repeat, decoy, `${path}/${key}`)}`);
  if (path === repeatIn && repeat !== undefined && Object.hasOwn(value, repeat)) members.unshift(`${JSON.stringify(repeat)}:${JSON.stringify(decoy)}`);
  return `{${gap}${members.join(`,${gap}`)}${gap}}`;
}

/** Values that stress the counts: commas and colons in keys and strings, arrays, nesting, escapes. */
const awkward: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>('a,b', ',', ',,', ':', 'x:,y', '', 'true', '3', 3, 0, -1, 1.5, true, false, null, [], {}, [1, 2, 3], ['a,b', 'c'], { ',': ',' }, [[], [{}]], 'quote " and \\ backslash'),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);

const edit = fc.record({
  kind: fc.constantFrom('set', 'add', 'delete'),
  object: fc.nat(),
  member: fc.constantFrom('interaction', 'promotional', 'flash', 'note1', 'programId', 'address', 'mobileOperatorId', 'ton', 'type', 'content', 'charset', 'udh', 'url', 'validityPeriod', 'mlc', 'receiptRequested', 'x,y', 'a:b', 'unknown'),
  value: awkward,
});

const body = fc.record({
  request: fc.constantFrom(...requests),
  edits: fc.array(edit, { maxLength: 3 }),
  space: fc.constantFrom('', '', '  ', '\t'),
  repeat: fc.option(fc.tuple(fc.nat(), fc.nat(), awkward), { freq: 3 }),
});

interface Body {
  readonly request: Record<string, unknown>;
  readonly edits: ReadonlyArray<{ kind: string; object: number; member: string; value: Json }>;
  readonly space: string;
  readonly repeat: readonly [number, number, Json] | null;
}

function bodyText({ request, edits, space, repeat }: Body): string {
  const value = structuredClone(request) as Json;
  for (const { kind, object, member, value: v } of edits) {
    const paths = objectPaths(value);
    const target = at(value, paths[object % paths.length] as string[]) as Record<string, Json>;
    if (kind === 'delete') delete target[member];
    else if (kind === 'set' && Object.hasOwn(target, member)) target[member] = structuredClone(v);
    else if (kind === 'add') target[member] = structuredClone(v);
  }
  if (repeat === null) return write(value, space, undefined, undefined, null);
  const [objectIndex, memberIndex, decoy] = repeat;
  const paths = objectPaths(value);
  const path = paths[objectIndex % paths.length] as string[];
  const keys = Object.keys(at(value, path) as object);
  if (keys.length === 0) return write(value, space, undefined, undefined, null);
  return write(value, space, path.map((k) => `/${k}`).join(''), keys[memberIndex % keys.length], decoy);
}

describe('readMtRequestJson against the general path', () => {
  it('gives the general path\'s value for every text without a backslash, and nothing for any other', () => {
    const seen = { read: 0, repeated: 0 };
    const cases = runs(4000);
    fc.assert(
      fc.property(body, (b) => {
        const text = bodyText(b);
        const want = expected(text);
        expect(readMtRequestJson(text)).toStrictEqual(want);
        if (want !== undefined) seen.read++;
        if (parseStrictJson(text).ok === false) seen.repeated++;
      }),
      { numRuns: cases },
    );
    // Both sides of the comparison were exercised: texts read (a fifth of the cases at least), and
    // texts refused for a repeated member (a tenth).
    expect(seen.read).toBeGreaterThan(cases / 5);
    expect(seen.repeated).toBeGreaterThan(cases / 10);
  });

  it('reads every valid fixture, minified or as written, as the general path does', () => {
    for (const path of listFixtures('mt-request/valid/json')) {
      for (const text of [loadFixture(path), JSON.stringify(JSON.parse(loadFixture(path)))]) {
        const value = readMtRequestJson(text);
        expect(value, path).toBeDefined();
        expect(value).toStrictEqual(general(text));
      }
    }
  });

  it('refuses a repeated member at any depth, and nesting past the limit, as the general path does', () => {
    for (const path of ['duplicate-depth-1.json', 'duplicate-depth-2.json', 'duplicate-depth-3.json']) {
      expect(readMtRequestJson(loadFixture(`mt-request/malformed/${path}`))).toBeUndefined();
    }
    const base = JSON.parse(loadFixture('mt-request/valid/json/text.json')) as { mobileTerminate: Record<string, unknown> };
    const nested = (depth: number): string => {
      base.mobileTerminate['deep'] = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
      return JSON.stringify(base);
    };
    // The root is depth 1 and mobileTerminate 2, so the deepest array holds depth 64 when 62 arrays are nested in it.
    expect(readMtRequestJson(nested(62))).toStrictEqual(general(nested(62)));
    expect(general(nested(62))).toBeDefined();
    expect(general(nested(63))).toBeUndefined();
    expect(readMtRequestJson(nested(63))).toBeUndefined();
  });

  it('is not taken when Object.prototype holds an enumerable member, and reads no inherited member', () => {
    const text = loadFixture('mt-request/valid/json/text.json');
    const proto = Object.prototype as Record<string, unknown>;
    try {
      proto['flash'] = 'polluted';
      expect(readMtRequestJson(text)).toBeUndefined();
      expect(decodeMtRequest(text, 'json')).toStrictEqual({ ok: true, value: general(text) });
    } finally {
      delete proto['flash'];
    }
    try {
      Object.defineProperty(Object.prototype, 'mlc', { value: 'polluted', configurable: true, enumerable: false, writable: true });
      const value = readMtRequestJson(text);
      expect(value).toStrictEqual(general(text));
      expect(value && Object.hasOwn(value.message, 'mlc')).toBe(false);
    } finally {
      delete proto['mlc'];
    }
  });
});
