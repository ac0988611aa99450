import { describe, expect, it } from 'vitest';
import { isRedisUnavailable, QueueUnavailableError, withinBound } from './queue-unavailable.js';

const coded = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe('withinBound', () => {
  it('turns what a Redis that cannot serve rejects with into QueueUnavailableError (unavailable), with the cause', async () => {
    for (const bound of [1_000, 0]) {
      for (const error of [
        new Error('Connection is closed.'),
        new Error('Too many Cluster redirections. Last error: Error: Connection is closed.'),
        new Error('Failed to refresh slots cache.'),
        new Error('CLUSTERDOWN The cluster is down'),
        new Error('LOADING Redis is loading the dataset in memory'),
        new Error('READONLY You can\'t write against a read only replica.'),
        coded('connect ECONNREFUSED 127.0.0.1:6379', 'ECONNREFUSED'),
      ]) {
        const rejected = await withinBound('enqueue', bound, Promise.reject(error)).catch((e: unknown) => e);
        expect(rejected).toBeInstanceOf(QueueUnavailableError);
        expect(rejected).toMatchObject({ reason: 'unavailable', operation: 'enqueue', cause: error });
      }
    }
  });

  it('passes any other error on as it is', async () => {
    for (const error of [new TypeError('key must be a string'), new Error('ERR wrong number of arguments'), new Error('NOSCRIPT No matching script'), 'a string']) {
      expect(isRedisUnavailable(error)).toBe(false);
      expect(await withinBound('getMessage', 1_000, Promise.reject(error)).catch((e: unknown) => e)).toBe(error);
    }
  });
});
