import type { WirePlan } from './wire-plan.js';

/** `true` when a value that passed the resource's schema check holds no member the schema does not name. */
export type ExactMembersCheck = (value: unknown) => boolean;

const lit = (text: string): string => JSON.stringify(text);

/**
 * `true` when, in every object of the value, the number of own members equals the number of plan
 * members present: the check that makes a parsed JSON body usable as it is (the JSON fast path). A
 * body with an unknown member, an alternative name (`alpha2code`), a nested placement or a member
 * named `__proto__` fails it and is read member by member instead. Only to be run on a value the
 * schema check accepted (objects where objects are expected, lists where lists are).
 */
export function hasExactMembers(plan: WirePlan, value: unknown): boolean {
  let count = 0;
  for (const member of plan) {
    const v = (value as Record<string, unknown>)[member.key];
    if (v === undefined) continue;
    count++;
    if (member.kind === 'object' && !hasExactMembers(member.plan, v)) return false;
    if (member.kind === 'array' && !(v as unknown[]).every((item) => hasExactMembers(member.plan, item))) return false;
  }
  return Object.keys(value as object).length === count;
}

/**
 * Compiles {@link hasExactMembers} for a plan, once, into straight-line code (member names written as
 * string literals); where code generation is forbidden it returns the walk itself.
 */
export function compileExactMembers(plan: WirePlan): ExactMembersCheck {
  const functions: string[] = [];
  const objectCheck = (members: WirePlan): string => {
    const index = functions.length;
    functions.push('');
    const body = ['let k = 0;', 'let v;'];
    for (const member of members) {
      const key = lit(member.key);
      body.push(`v = n[${key}];`, 'if (v !== undefined) {', 'k++;');
      if (member.kind === 'object') body.push(`if (!${objectCheck(member.plan)}(v)) return false;`);
      else if (member.kind === 'array') body.push(`for (let i = 0; i < v.length; i++) if (!${objectCheck(member.plan)}(v[i])) return false;`);
      body.push('}');
    }
    body.push('return Object.keys(n).length === k;');
    functions[index] = `function exact${index}(n) {\n${body.join('\n')}\n}`;
    return `exact${index}`;
  };
  const root = objectCheck(plan);
  try {
    return new Function(`'use strict';\n${functions.join('\n')}\nreturn ${root};`)() as ExactMembersCheck;
  } catch {
    return (value) => hasExactMembers(plan, value);
  }
}
