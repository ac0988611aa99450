import picocolors from 'picocolors';
import type { CliOutput } from '../cli-io.js';

/** The colour functions of picocolors (identity functions when colours are off). */
export type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * Whether to colour what is written to `stream`: `FORCE_COLOR` (other than `0` / `false`) forces
 * colours, a non-empty `NO_COLOR` or `--no-color` turns them off, otherwise only a terminal gets them
 * (and not `TERM=dumb`).
 */
export function colorEnabled(stream: CliOutput, env: Readonly<Record<string, string | undefined>>, flag?: boolean): boolean {
  if (flag === false) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The colours for one stream. */
export function colorsFor(stream: CliOutput, env: Readonly<Record<string, string | undefined>>, flag?: boolean): Colors {
  return picocolors.createColors(colorEnabled(stream, env, flag));
}
