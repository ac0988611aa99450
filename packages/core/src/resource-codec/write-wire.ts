import { own } from '../json/strict-json.js';
import type { XmlBuildNode } from '../xml/xml-document.js';
import type { WirePlan } from './wire-plan.js';

/** The JSON form of a valid value: the plan's members in the schema's order, nothing else. */
export function writeJson(plan: WirePlan, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const member of plan) {
    const v = own(value, member.key);
    if (v === undefined) continue;
    if (member.kind === 'object') out[member.key] = writeJson(member.plan, v);
    else if (member.kind === 'array') out[member.key] = (v as unknown[]).map((item) => writeJson(member.plan, item));
    else out[member.key] = v;
  }
  return out;
}

/**
 * The XML form of a valid value: scalars become attributes, objects child elements, lists a
 * container element holding one item element per entry, in the schema's order.
 */
export function writeXml(plan: WirePlan, value: unknown): XmlBuildNode {
  const out: XmlBuildNode = {};
  for (const member of plan) {
    const v = own(value, member.key);
    if (v === undefined) continue;
    if (member.kind === 'object') out[member.key] = writeXml(member.plan, v);
    else if (member.kind === 'array') out[member.key] = { [member.item]: (v as unknown[]).map((item) => writeXml(member.plan, item)) };
    else out[member.xmlKey] = String(v);
  }
  return out;
}
