// Runs the built `smsv4` binary as a subprocess, and small servers for end-to-end tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The binary under test. */
export const BINARY = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** What a run of the binary gave. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link smsv4}. */
export interface RunOptions {
  /** Written to standard input (then closed). */
  readonly input?: string | Uint8Array;
  /** Added to a clean environment (no colour variables, no SMSV4_*). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Kill the run after this many ms (default 20 000). */
  readonly timeoutMs?: number;
}

/** The environment of a run: the test process's, without the variables that change the CLI's output. */
export function cleanEnvironment(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('SMSV4_') || name === 'NO_COLOR' || name === 'FORCE_COLOR' || name === 'NODE_OPTIONS') continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs `node dist/cli.js ...args` to completion. */
export function smsv4(args: readonly string[], { input, env = {}, cwd, timeoutMs = 20_000 }: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BINARY, ...args], { env: cleanEnvironment(env), cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A run that ends before reading its input closes the pipe (EPIPE): its status and output are what counts.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/** A running `smsv4 sandbox`. */
export interface SandboxProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Headers of an admin API call: the Bearer token of its banner, and JSON. */
  admin(): Record<string, string>;
  /** Sends `signal` (default SIGTERM) unless it has exited, and resolves with the exit code and the output. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; output: string }>;
}

/** Starts `smsv4 sandbox ...args` and waits (at most 15 s) for the API URL in its banner. */
export function startSandbox(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<SandboxProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BINARY, 'sandbox', ...args], { env: cleanEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let started = false;
    const closed = new Promise<number | null>((done) => child.on('close', done));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sandbox did not start in time:\n${output}`));
    }, 15_000);
    const onData = (chunk: string): void => {
      output += chunk;
      const match = /API\s+(http:\/\/\S+)/.exec(output);
      // Resolved once the whole banner (with the admin token after the API line) is out.
      if (match !== null && !started && /Ctrl\+C/.test(output)) {
        started = true;
        clearTimeout(timer);
        resolve({
          url: match[1] as string,
          child,
          output: () => output,
          admin: () => {
            const token = /Authorization: Bearer (\S+)/.exec(output)?.[1];
            return { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), 'content-type': 'application/json' };
          },
          async stop(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            const code = await closed;
            return { code, output };
          },
        });
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('close', (code) => {
      if (!started) {
        clearTimeout(timer);
        reject(new Error(`the sandbox exited with ${String(code)}:\n${output}`));
      }
    });
  });
}

/** A request a {@link Receiver} got. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A local HTTP server that answers 200 to everything and keeps what it got. */
export interface Receiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Resolves once `count` requests arrived (at most `timeoutMs`, default 15 s). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** Starts a {@link Receiver} on 127.0.0.1, any free port. */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`only ${requests.length} of ${count} requests arrived`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 250));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return requests.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
