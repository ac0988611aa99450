/** Shared helpers of the end-to-end tests: both Fastify majors, loopback listening. */
import fastify5, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastify4 from 'fastify4';

/** The Fastify majors every end-to-end suite runs against. */
export const FASTIFY_VERSIONS: ReadonlyArray<readonly [string, (options?: FastifyServerOptions) => FastifyInstance]> = [
  ['fastify 4', (options) => fastify4(options)],
  ['fastify 5', (options) => fastify5(options)],
];

/** Starts an app on 127.0.0.1 (any free port) and returns its origin. */
export async function listen(app: FastifyInstance): Promise<string> {
  return (await app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
}
