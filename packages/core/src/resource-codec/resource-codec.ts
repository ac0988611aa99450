import type { Static, TObject } from '@sinclair/typebox';
import { compileSchema, type SchemaCheck } from '../codec/compile-schema.js';
import { lazy } from '../lazy.js';
import type { PayloadError } from '../codec/payload-error.js';
import { DEFAULT_MAX_BODY_BYTES, readBodyOf, type DecodeOptions, type EncodeOptions, type ReadBody, type WireFormat } from '../codec/wire-format.js';
import type { BodyInput } from '../body/body-text.js';
import { err, ok, type Result } from '../result.js';
import { buildXmlDocument } from '../xml/xml-document.js';
import { bodyProblemError, schemaViolationError, timestampFaultError, wrongResourceError } from './payload-problems.js';
import { compileReader, type WireReader } from './compile-reader.js';
import { compileExactMembers, type ExactMembersCheck } from './compile-exact-members.js';
import { compileTimestampCheck, type TimestampCheck } from './timestamp-members.js';
import { attributeKeysOf, planOf, type WirePlan } from './wire-plan.js';
import { writeJson, writeXml } from './write-wire.js';

/** A resource with a JSON and an XML form: its root name, schema, compiled check and wire plan. */
export interface Resource<S extends TObject> {
  /** The root element (XML) or the one top-level member (JSON). */
  readonly root: string;
  readonly schema: S;
  /** The namespace URI encoders write on the XML root by default. */
  readonly namespace: string;
  readonly check: SchemaCheck<S>;
  /** After `check`, finds a timestamp member the timestamp reader refuses (a day its month does not have...). */
  readonly timestamps: TimestampCheck;
  /** With `check`, tells a parsed JSON body already in the decoded form (see `compileExactMembers`). */
  readonly exactMembers: ExactMembersCheck;
  readonly plan: WirePlan;
  /** The XML attribute names the plan reads, each with its key in the XML tree (see `attributeKeysOf`). */
  readonly attributeKeys: ReadonlyMap<string, string>;
  readonly readJson: WireReader;
  readonly readXml: WireReader;
}

/**
 * Defines a resource (call at module load): its plan, check and readers are compiled on first use,
 * once, so that defining it costs nothing and an unused resource costs nothing.
 */
export function defineResource<S extends TObject>(root: string, schema: S, namespace: string): Resource<S> {
  const compiled = lazy(() => {
    const plan = planOf(schema);
    return {
      plan,
      attributeKeys: attributeKeysOf(plan),
      exactMembers: compileExactMembers(plan),
      readJson: compileReader(plan, false),
      readXml: compileReader(plan, true),
      timestamps: compileTimestampCheck(schema),
    };
  });
  return {
    root,
    schema,
    namespace,
    check: compileSchema(schema),
    get exactMembers() {
      return compiled().exactMembers;
    },
    get plan() {
      return compiled().plan;
    },
    get attributeKeys() {
      return compiled().attributeKeys;
    },
    get readJson() {
      return compiled().readJson;
    },
    get readXml() {
      return compiled().readXml;
    },
    get timestamps() {
      return compiled().timestamps;
    },
  };
}

/**
 * Decodes a body of a resource: size limit, UTF-8 and strict parse first (see `readBody`), then the
 * root. A JSON body already in the decoded form (numbers as numbers, the schema's names and layout,
 * no other member) passes the compiled schema check and a member count and is returned as parsed.
 * Any other body is read once, known members only (values normalised, unknown members dropped),
 * and the result checked; detailed errors are collected only when that check fails. Never throws
 * on any body; throws `TypeError` for a format other than `'json'` or `'xml'`.
 */
export function decodeResource<S extends TObject>(
  resource: Resource<S>,
  body: BodyInput,
  format: WireFormat,
  { maxBytes = DEFAULT_MAX_BODY_BYTES }: DecodeOptions = {},
): Result<Static<S>, PayloadError> {
  const read = readBodyOf(body, format, maxBytes, resource.attributeKeys);
  if (!read.ok) return err(bodyProblemError(read.error, format, maxBytes));
  return decodeReadBody(resource, read.value);
}

/**
 * The part of {@link decodeResource} after the body is read: the root, then the members. For a
 * caller that has read the body once and chooses the resource by its root (`decodeCallback`).
 */
export function decodeReadBody<S extends TObject>(resource: Resource<S>, parsed: ReadBody): Result<Static<S>, PayloadError> {
  let node: unknown;
  if (parsed.format === 'json') {
    if (!Object.hasOwn(parsed.json, resource.root)) return err(wrongResourceError(resource.root, Object.keys(parsed.json)[0]));
    node = parsed.json[resource.root];
    if (resource.check.Check(node) && resource.exactMembers(node)) return checkedTimestamps(resource, node);
  } else {
    if (parsed.xml.rootName !== resource.root) return err(wrongResourceError(resource.root, parsed.xml.rootName));
    node = parsed.xml.root;
  }
  const xml = parsed.format === 'xml';
  const candidate = xml ? resource.readXml(node) : resource.readJson(node);
  if (resource.check.Check(candidate)) return checkedTimestamps(resource, candidate);
  return err(schemaViolationError(resource.root, resource.check.Errors(candidate).First(), xml));
}

/** A value the schema check accepted, once its timestamps are read too. */
function checkedTimestamps<S extends TObject>(resource: Resource<S>, value: Static<S>): Result<Static<S>, PayloadError> {
  const fault = resource.timestamps(value);
  return fault === undefined ? ok(value) : err(timestampFaultError(resource.root, fault));
}

/** `true` when a candidate is a value of the resource: its schema check and its timestamps. */
export function isResourceValue<S extends TObject>(resource: Resource<S>, candidate: unknown): candidate is Static<S> {
  return resource.check.Check(candidate) && resource.timestamps(candidate) === undefined;
}

/**
 * Encodes a value of a resource. JSON: `{"<root>": {...}}` with members in the schema's order. XML:
 * the root element with scalars as attributes and objects as child elements, the namespace of
 * `options.namespace` (default the resource's; `null` for none). Throws `TypeError` for a format
 * other than `'json'` or `'xml'` and for a value that breaks the resource's schema.
 */
export function encodeResource<S extends TObject>(
  resource: Resource<S>,
  value: Static<S>,
  format: WireFormat,
  { namespace = resource.namespace }: EncodeOptions = {},
): string {
  if (format !== 'json' && format !== 'xml') throw new TypeError(`format must be 'json' or 'xml', got ${String(format)}`);
  if (!resource.check.Check(value)) {
    const problem = schemaViolationError(resource.root, resource.check.Errors(value).First(), false);
    throw new TypeError(`not a valid ${resource.root}: ${problem.description}`);
  }
  const fault = resource.timestamps(value);
  if (fault !== undefined) throw new TypeError(`not a valid ${resource.root}: ${timestampFaultError(resource.root, fault).description}`);
  if (format === 'json') return JSON.stringify({ [resource.root]: writeJson(resource.plan, value) });
  const node = writeXml(resource.plan, value);
  return buildXmlDocument(resource.root, namespace === null ? node : { '@xmlns': namespace, ...node });
}
