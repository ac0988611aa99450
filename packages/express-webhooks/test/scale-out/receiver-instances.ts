/** Starts receiver instances as child processes (see `receiver-process.ts`) and talks to them. */
import { fork, type ChildProcess } from 'node:child_process';
import { compiledScript } from '@smsv4/bench/compiled-script';
import type { ReceiverConfig, ReceiverEvent } from './receiver-process.js';

const SCRIPT = new URL('./receiver-process.ts', import.meta.url);

/** One running instance. */
export interface ReceiverInstance {
  readonly name: string;
  readonly pid: number;
  readonly port: number;
  readonly child: ChildProcess;
  /** Its counts (and, with `keys`, every event key it handled). */
  stats(keys?: boolean): Promise<Extract<ReceiverEvent, { kind: 'stats' }>>;
  /** Stops it cleanly. */
  close(): Promise<void>;
  /** SIGKILL: no cleanup, no last word. Resolves once it is gone. */
  kill(): Promise<void>;
}

/** Forks one instance; `onEvent` gets everything it writes (journal entries, errors). */
export async function startReceiver(config: ReceiverConfig, onEvent: (event: ReceiverEvent) => void = () => undefined): Promise<ReceiverInstance> {
  const child = fork(await compiledScript(SCRIPT), [JSON.stringify(config)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const statsWaiters: Array<(event: Extract<ReceiverEvent, { kind: 'stats' }>) => void> = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`receiver ${config.name} did not start in 30 s`));
    }, 30_000);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`receiver ${config.name} exited before it was ready (${String(code ?? signal)})`));
    });
    child.on('message', (message) => {
      const event = message as ReceiverEvent;
      if (event.kind === 'stats') {
        statsWaiters.shift()?.(event);
        return;
      }
      if (event.kind === 'ready') {
        clearTimeout(timer);
        resolve({
          name: config.name,
          pid: event.pid,
          port: event.port,
          child,
          stats: (keys = false) =>
            new Promise((res) => {
              statsWaiters.push(res);
              child.send({ kind: 'stats', keys });
            }),
          close: async () => {
            if (child.exitCode === null && child.signalCode === null) child.send({ kind: 'close' });
            await exited;
          },
          kill: async () => {
            child.kill('SIGKILL');
            await exited;
          },
        });
        return;
      }
      onEvent(event);
    });
  });
}
