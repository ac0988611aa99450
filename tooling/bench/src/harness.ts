import { Bench } from 'tinybench';

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
  /** Median time per call, milliseconds. */
  readonly msPerCall: number;
  readonly itemsPerSecond: number;
  readonly samples: number;
}

/** The outcome of a suite. */
export interface SuiteResult {
  readonly suite: BenchSuite;
  readonly baseline: TaskResult;
  readonly subjects: readonly TaskResult[];
  /** The ratio the target speaks of, for the target's subject. */
  readonly ratio: number;
  readonly met: boolean;
  readonly notes: readonly string[];
}

/** Runs one suite; baseline and subjects are measured alternately in the same process. */
export async function runSuite(suite: BenchSuite, { time = 1500, warmupTime = 300 } = {}): Promise<SuiteResult> {
  const bench = new Bench({ time, warmupTime, name: suite.id });
  bench.add(suite.baseline.name, suite.baseline.fn);
  for (const subject of suite.subjects) bench.add(subject.name, subject.fn);
  await bench.run();
  const results = bench.tasks.map((task): TaskResult => {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${suite.id}/${task.name}: ${result.state}`);
    const msPerCall = result.latency.p50;
    return { name: task.name, msPerCall, itemsPerSecond: (suite.items * 1000) / msPerCall, samples: result.latency.samplesCount };
  });
  const [baseline, ...subjects] = results as [TaskResult, ...TaskResult[]];
  const measured = subjects.find((s) => s.name === suite.target.subject);
  if (!measured) throw new Error(`${suite.id}: no subject named ${suite.target.subject}`);
  const ratio =
    suite.target.kind === 'max-time-ratio' ? measured.msPerCall / baseline.msPerCall : baseline.msPerCall / measured.msPerCall;
  const met = suite.target.kind === 'max-time-ratio' ? ratio <= suite.target.value : ratio >= suite.target.value;
  return { suite, baseline, subjects, ratio, met, notes: suite.notes?.() ?? [] };
}
