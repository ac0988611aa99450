/** Shared helpers of the end-to-end tests: both Express majors and the testing kit's server. */
import { eventually, serve, type ServedApp } from '@smsv4/testing';
import express5, { type Express } from 'express';
import express4 from 'express4';

export { eventually };

/** The Express majors every end-to-end suite runs against. */
export const EXPRESS_VERSIONS: ReadonlyArray<readonly [string, () => Express]> = [
  ['express 4', () => express4()],
  ['express 5', () => express5()],
];

/** The `express` module of a major (for its body parsers). */
export const EXPRESS_MODULES = { 'express 4': express4, 'express 5': express5 } as const;

/** A server on 127.0.0.1 (any free port), closed by the kit after the file when not closed before. */
export type Listening = ServedApp;

/** Serves an Express app on loopback. */
export const listen = (app: Express): Promise<Listening> => serve(app);
