/**
 * Escaping of text and attribute values for every XML encoder, so that an XML parser reads back
 * exactly the string written: markup characters become references, and the white space an
 * XML parser would normalise (a carriage return anywhere; tab and line feed in attributes) is
 * written as character references. Characters XML 1.0 cannot carry at all (C0 controls other than
 * tab, line feed and carriage return, U+FFFE, U+FFFF, lone surrogates) make the encoder throw.
 */

/** Where a character XML cannot carry is reported: the encoder, the member path and a way out. */
export interface EscapeContext {
  /** The encoder's name, e.g. `encodeMtRequest`. */
  readonly encoder: string;
  /** The member's path, e.g. `message.content`. */
  readonly member: string;
  /** What to do instead (default: encode as JSON). */
  readonly advice?: string;
}

function unrepresentable(s: string, index: number, { encoder, member, advice = 'encode it as JSON' }: EscapeContext): TypeError {
  const c = s.charCodeAt(index);
  const hex = c.toString(16).toUpperCase().padStart(4, '0');
  const what = c >= 0xd800 && c <= 0xdfff ? `a lone surrogate (U+${hex})` : `U+${hex}`;
  return new TypeError(`${encoder}: ${member} holds ${what} at index ${index}, which an XML 1.0 document cannot carry; ${advice}`);
}

/**
 * Escapes a string for XML: `&`, `<`, `>` always; `"` and tab / line feed in attributes; carriage
 * return always.
 * @throws TypeError naming the member when the string holds a character XML 1.0 cannot carry.
 */
export function escapeXml(s: string, context: EscapeContext, attribute: boolean): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let ref: string;
    if (c >= 0x3f && c < 0xd800) continue; // the common case: letters and most of the BMP
    if (c === 38) ref = '&amp;';
    else if (c === 60) ref = '&lt;';
    else if (c === 62) ref = '&gt;';
    else if (c === 34 && attribute) ref = '&quot;';
    else if (c === 13) ref = '&#13;';
    else if (c === 10 && attribute) ref = '&#10;';
    else if (c === 9 && attribute) ref = '&#9;';
    else if (c < 0x20 && c !== 9 && c !== 10) throw unrepresentable(s, i, context);
    else if (c >= 0xd800 && c <= 0xdfff) {
      const d = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) throw unrepresentable(s, i, context);
      i++;
      continue;
    } else if (c === 0xfffe || c === 0xffff) throw unrepresentable(s, i, context);
    else continue;
    out += s.slice(from, i) + ref;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}
