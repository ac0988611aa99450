import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { decodeCallback, type InboundCallback } from './decode-callback.js';
import type { RedisCommand } from './duplicate-store.js';
import { createRedisReassemblyStore } from './redis-reassembly-store.js';

// The scripts themselves run against a real redis-server in @smsv4/express-webhooks' tests; these
// check what the store does around them.

function inbound(path: string): InboundCallback {
  const result = decodeCallback(loadFixture(path), path.endsWith('.json') ? 'json' : 'xml');
  if (!result.ok || result.value.kind !== 'inbound-message') throw new Error(`${path} is not an inbound message`);
  return result.value;
}

const OPTIONS = { timeoutMs: 1000, leaseMs: 100 };

describe('createRedisReassemblyStore', () => {
  it('runs each script by its SHA, by source where the node answers NOSCRIPT, with keys of one slot and no phone number in them', async () => {
    const log: string[] = [];
    const keys: string[][] = [];
    let forgotten = false;
    const send: RedisCommand = async ([name = '', ...args]) => {
      log.push(name);
      if (name === 'EVALSHA' || name === 'EVAL') {
        if (name === 'EVALSHA') expect(args[0]).toMatch(/^[0-9a-f]{40}$/);
        if (name === 'EVALSHA' && forgotten) {
          forgotten = false;
          throw new Error('NOSCRIPT No matching script. Please use EVAL.');
        }
        expect(args[1]).toBe('4');
        keys.push(args.slice(2, 5));
        return ['stored', 1];
      }
      throw new Error(`unexpected ${name}`);
    };
    const store = createRedisReassemblyStore({ sendCommand: send, keyPrefix: 'test:' });
    const part = inbound('mobile-originate/udh8-part1.xml');
    expect(await store.add(part, OPTIONS)).toEqual({ status: 'stored', received: 1, total: 2 });
    forgotten = true;
    expect(await store.add(part, OPTIONS)).toEqual({ status: 'stored', received: 1, total: 2 });
    expect(log).toEqual(['EVALSHA', 'EVALSHA', 'EVAL']);
    for (const [group = '', index = '', handedOver = ''] of keys) {
      const slot = /^test:\{(\d+)\}/.exec(group)?.[1];
      expect(slot).toBeDefined();
      expect(index).toBe(`test:{${slot}}deadlines`);
      expect(handedOver.startsWith(`test:{${slot}}handed-over:`)).toBe(true);
      expect(group).not.toMatch(/12065551234|24273/);
    }
    // The same secret names a message alike on every instance; another secret otherwise.
    const other = createRedisReassemblyStore({ sendCommand: send, keyPrefix: 'test:', keySecret: 'mine' });
    await other.add(part, OPTIONS);
    expect(keys[2]?.[0]).not.toBe(keys[0]?.[0]);
    expect(keys[1]?.[0]).toBe(keys[0]?.[0]);
  });

  it('reads the parts of a complete message back as the callbacks they were, and refuses values it did not write', async () => {
    const one = inbound('mobile-originate/udh8-part1.xml');
    const two = inbound('mobile-originate/udh8-part2.xml');
    let reply: unknown[] = [];
    const send: RedisCommand = async () => reply;
    const store = createRedisReassemblyStore({ sendCommand: send });
    reply = ['complete', 'token-1', JSON.stringify([one.format, one.message]), JSON.stringify([two.format, two.message])];
    const outcome = await store.add(two, OPTIONS);
    expect(outcome).toMatchObject({ status: 'complete', group: { token: 'token-1', concatenation: { reference: 0x4a, referenceBits: 8, total: 2 } } });
    expect(outcome.status === 'complete' && outcome.group.parts).toEqual([one, two]);
    reply = ['complete', 'token-2', JSON.stringify(['xml', { ticketId: 'not a message' }])];
    await expect(store.add(two, OPTIONS)).rejects.toThrow(/not a part of a multipart inbound message/);
    // The schema's pattern lets a day February lacks through; the timestamp reader does not.
    reply = ['complete', 'token-3', JSON.stringify([one.format, { ...one.message, submittedDate: '2015-02-30T15:10:03.029-05:00' }])];
    await expect(store.add(two, OPTIONS)).rejects.toThrow(
      new TypeError('a value under smsv4:reassembly: is not a part of a multipart inbound message: is another program writing under this prefix?'),
    );
  });

  it('refuses bad options', () => {
    expect(() => createRedisReassemblyStore({ sendCommand: 'nope' as unknown as RedisCommand })).toThrow(TypeError);
    expect(() => createRedisReassemblyStore({ sendCommand: async () => null, retentionMs: 0 })).toThrow(TypeError);
    expect(() => createRedisReassemblyStore({ sendCommand: async () => null, shards: 0 })).toThrow(TypeError);
    expect(() => createRedisReassemblyStore({ sendCommand: async () => null, keySecret: '' })).toThrow(TypeError);
    for (const maxPendingBytes of [0, -1, 1.5, Number.NaN]) expect(() => createRedisReassemblyStore({ sendCommand: async () => null, maxPendingBytes })).toThrow(/maxPendingBytes/);
  });

  it('gives each shard its share of maxPendingBytes, and reads a part refused past it as full', async () => {
    const budgets: string[] = [];
    const send: RedisCommand = async ([, ...args]) => {
      budgets.push(String(args.at(-1)));
      return ['full'];
    };
    const part = inbound('mobile-originate/udh8-part1.xml');
    expect(await createRedisReassemblyStore({ sendCommand: send, shards: 4, maxPendingBytes: 1000 }).add(part, OPTIONS)).toEqual({ status: 'full' });
    expect(await createRedisReassemblyStore({ sendCommand: send, shards: 16 }).add(part, OPTIONS)).toEqual({ status: 'full' });
    expect(budgets).toEqual(['250', String((32 * 1024 * 1024) / 16)]);
  });
});
