import type { CliOutput } from '../cli-io.js';

/** A progress line on standard error. */
export interface Progress {
  /** Shows `label` with `done` of `total` (written at most every `intervalMs`, and always for the last). */
  update(done: number, total: number, label?: string): void;
  /** Shows a free text (e.g. the state a wait is in). */
  note(text: string): void;
  /** Removes the line. */
  finish(): void;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Write at all (default: only when the stream is a terminal). */
  readonly enabled?: boolean;
  /** Least time between two updates, ms (default 100). */
  readonly intervalMs?: number;
  /** Clock, ms (default `performance.now`). */
  readonly now?: () => number;
}

const CLEAR_LINE = '\r\u001b[2K';

/**
 * A progress line that rewrites itself (`\r` and erase-line), throttled. Disabled, every method
 * does nothing: progress never reaches a pipe or a file unless asked for (`--progress`).
 */
export function createProgress(stream: CliOutput, { enabled = stream.isTTY === true, intervalMs = 100, now = () => performance.now() }: ProgressOptions = {}): Progress {
  let last = Number.NEGATIVE_INFINITY;
  let shown = false;
  const show = (text: string): void => {
    stream.write(`${CLEAR_LINE}${text}`);
    shown = true;
  };
  if (!enabled) return { update: () => undefined, note: () => undefined, finish: () => undefined };
  return {
    update(done, total, label = 'done') {
      const at = now();
      if (done < total && at - last < intervalMs) return;
      last = at;
      show(`${label} ${done}/${total}`);
    },
    note(text) {
      show(text);
    },
    finish() {
      if (shown) stream.write(CLEAR_LINE);
      shown = false;
    },
  };
}
