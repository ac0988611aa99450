/** One measured function: it processes `items` inputs per call (a batch keeps timer overhead out). */
export interface BenchTask {
  readonly name: string;
  readonly fn: () => unknown;
}

/**
 * A comparison measured in one run: a baseline and the subject(s). `target` states what the subject
 * must reach, as a ratio of the subject's time per batch to the baseline's (`max-time-ratio`, e.g. 2.0
 * = at most twice the baseline's time) or of the subject's speed to the baseline's (`min-speed-ratio`,
 * e.g. 10 = at least ten times as fast).
 */
export interface BenchSuite {
  readonly id: string;
  readonly title: string;
  /** The path's name in the summary table at the top of BENCHMARKS.md. */
  readonly path: string;
  /** Inputs processed per call, to report a per-item rate. */
  readonly items: number;
  readonly itemName: string;
  readonly baseline: BenchTask;
  readonly subjects: readonly BenchTask[];
  readonly target: { readonly kind: 'max-time-ratio' | 'min-speed-ratio'; readonly value: number; readonly subject: string };
  /** Extra lines for the report (e.g. agreement counts), computed once. */
  readonly notes?: () => readonly string[];
}

/** The measured outcome of one task. */
export interface TaskResult {
  readonly name: string;
  /** Median time per call over all rounds, milliseconds. */
  readonly msPerCall: number;
  readonly itemsPerSecond: number;
  readonly samples: number;
  /** Time per call relative to the baseline: the median of the rounds' ratios, and their range. */
  readonly timeRatio: number;
  readonly timeRatioMin: number;
  readonly timeRatioMax: number;
}

/** The outcome of a suite. */
export interface SuiteResult {
  readonly suite: BenchSuite;
  readonly baseline: TaskResult;
  readonly subjects: readonly TaskResult[];
  /** The ratio the target speaks of, for the target's subject (median of the rounds). */
  readonly ratio: number;
  /** The least favourable and most favourable round, in the target's own sense. */
  readonly ratioWorst: number;
  readonly ratioBest: number;
  readonly rounds: number;
  readonly met: boolean;
  readonly notes: readonly string[];
}

/** Options of {@link runSuite}. */
export interface RunOptions {
  /** Rounds; each yields one ratio per subject (default 10). */
  readonly rounds?: number;
  /** Length of a round, milliseconds (default 300). */
  readonly roundMs?: number;
  /** Warm-up before the first round, milliseconds (default 500). */
  readonly warmupMs?: number;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * Runs one suite with the baseline and the subjects interleaved call by call, so that every task
 * meets the same machine load: in each round the tasks are called in turn (the first task of the
 * turn rotates) until the round's time is spent; each round gives each task a median time per call
 * and each subject a ratio to the baseline's median of the same round. A task's ratio is the median
 * of its rounds' ratios, reported with their range.
 */
export async function runSuite(suite: BenchSuite, { rounds = 10, roundMs = 300, warmupMs = 500 }: RunOptions = {}): Promise<SuiteResult> {
  const tasks = [suite.baseline, ...suite.subjects];
  let sink = 0;
  // Tasks that return a promise are awaited (the time includes it); others are timed without one.
  const isAsync = tasks.map((task) => task.fn() instanceof Promise);
  for (const [index, task] of tasks.entries()) if (isAsync[index]) await task.fn();
  const time = async (index: number): Promise<number> => {
    const task = tasks[index] as BenchTask;
    const start = performance.now();
    let out = task.fn();
    if (isAsync[index]) out = await out;
    const elapsed = performance.now() - start;
    sink += out ? 1 : 0;
    return elapsed;
  };
  const warmupEnd = performance.now() + warmupMs;
  while (performance.now() < warmupEnd) for (let index = 0; index < tasks.length; index++) await time(index);

  const perRound: number[][] = tasks.map(() => []);
  const all: number[][] = tasks.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const samples: number[][] = tasks.map(() => []);
    const end = performance.now() + roundMs;
    let turn = 0;
    while (performance.now() < end || (samples[0] as number[]).length < 5) {
      for (let k = 0; k < tasks.length; k++) {
        const index = (turn + k) % tasks.length;
        (samples[index] as number[]).push(await time(index));
      }
      turn++;
    }
    samples.forEach((s, index) => {
      (perRound[index] as number[]).push(median(s));
      (all[index] as number[]).push(...s);
    });
  }
  if (sink < 0) console.log(sink);

  const baselineRounds = perRound[0] as number[];
  const results = tasks.map((task, index): TaskResult => {
    const ratios = (perRound[index] as number[]).map((ms, round) => ms / (baselineRounds[round] as number));
    const msPerCall = median(perRound[index] as number[]);
    return {
      name: task.name,
      msPerCall,
      itemsPerSecond: (suite.items * 1000) / msPerCall,
      samples: (all[index] as number[]).length,
      timeRatio: median(ratios),
      timeRatioMin: Math.min(...ratios),
      timeRatioMax: Math.max(...ratios),
    };
  });
  const [baseline, ...subjects] = results as [TaskResult, ...TaskResult[]];
  const measured = subjects.find((s) => s.name === suite.target.subject);
  if (!measured) throw new Error(`${suite.id}: no subject named ${suite.target.subject}`);
  const byTime = suite.target.kind === 'max-time-ratio';
  const ratio = byTime ? measured.timeRatio : 1 / measured.timeRatio;
  const ratioWorst = byTime ? measured.timeRatioMax : 1 / measured.timeRatioMax;
  const ratioBest = byTime ? measured.timeRatioMin : 1 / measured.timeRatioMin;
  const met = byTime ? ratio <= suite.target.value : ratio >= suite.target.value;
  return { suite, baseline, subjects, ratio, ratioWorst, ratioBest, rounds, met, notes: suite.notes?.() ?? [] };
}
