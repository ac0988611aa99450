/**
 * The redis-server of the scale-out benchmark (`bench/scale-out.bench.ts`, run outside a test
 * runner): the testing kit's `startRedis`, stopped by hand. Tests call `startRedis` themselves.
 */
import { startRedis, type TestRedis } from '@smsv4/testing';

/** A running redis-server. */
export type RedisServer = TestRedis;

/** Starts a redis-server on a free loopback port; `stop()` it when done. */
export const startRedisServer = (): Promise<RedisServer> => startRedis({ teardown: 'manual' });
