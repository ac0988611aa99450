/** Shared helpers of the end-to-end tests: Nest applications on loopback, requests, a recording logger. */
import type { INestApplication, LoggerService, ModuleMetadata } from '@nestjs/common';
import type { NestApplicationOptions } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { eventually, type CallbackAnswer } from '@smsv4/testing';

export { eventually };

/** A Nest application listening on 127.0.0.1 (any free port). */
export interface RunningApp {
  readonly app: INestApplication;
  readonly url: string;
  close(): Promise<void>;
}

/** Compiles a testing module and serves it over HTTP on loopback. */
export async function startApp(
  metadata: ModuleMetadata,
  options: NestApplicationOptions = {},
  configure: (app: INestApplication) => void = () => undefined,
): Promise<RunningApp> {
  const moduleRef = await Test.createTestingModule(metadata).compile();
  const app = moduleRef.createNestApplication({ logger: false, ...options });
  configure(app);
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, url, close: () => app.close() };
}

/** Any request, its answer read whole. */
export async function request(url: string, init: RequestInit): Promise<CallbackAnswer> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A logger that keeps what Nest and the module log. */
export function createRecordingLogger(): LoggerService & { readonly entries: Array<{ level: string; message: string; trace?: string }> } {
  const entries: Array<{ level: string; message: string; trace?: string }> = [];
  const record = (level: string) => (message: unknown, ...rest: unknown[]) => {
    const trace = typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : undefined;
    entries.push({ level, message: String(message), ...(trace === undefined ? {} : { trace }) });
  };
  return { entries, log: record('log'), error: record('error'), warn: record('warn'), debug: record('debug'), verbose: record('verbose') };
}
