import type { WirePlan } from './wire-plan.js';

/** `true` when a value that passed the resource's schema check holds no member the schema does not name. */
export type ExactMembersCheck = (value: unknown) => boolean;

const lit = (text: string): string => JSON.stringify(text);

/**
 * Compiles, once, the check that makes a parsed JSON body usable as it is (the JSON fast path): in
 * every object of the value, the number of own members equals the number of schema members present.
 * A body with an unknown member, an alternative name (`alpha2code`), a nested placement or a
 * member named `__proto__` fails it and is read member by member instead. Only to be run on a value
 * the compiled schema check accepted (objects where objects are expected, lists where lists are).
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
  return new Function(`'use strict';\n${functions.join('\n')}\nreturn ${root};`)() as ExactMembersCheck;
}
