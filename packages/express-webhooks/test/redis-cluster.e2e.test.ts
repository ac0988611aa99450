/**
 * The Redis stores of the receivers on a local Redis Cluster of 3 masters, with their default
 * options: every script on keys of one slot (no CROSSSLOT), messages spread over the nodes,
 * scripts flushed from every node (NOSCRIPT) and a master killed and restarted, traffic flowing.
 * Each event is handled once. One cluster for the file; its own file, as it starts four processes.
 */
import {
  buildUserDataHeader,
  bytesToHex,
  createWebhookHandler,
  encodeHex,
  encodeMobileOriginate,
  type WebhookHandler,
  type WebhookRequest,
} from '@smsv4/core';
import { startRedisCluster, type TestRedisCluster } from '@smsv4/testing';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisDuplicateStore, createRedisReassemblyStore, type RedisCommand, type WebhookError } from '../src/index.js';

const JSON_HEADERS = { 'x-api-version': '4', 'content-type': 'application/json; charset=UTF-8' };

/** Part `sequence` of 2 of a message from `from`. */
function part(from: string, sequence: 1 | 2): WebhookRequest {
  const header = bytesToHex(buildUserDataHeader({ concatenation: { reference: 7, total: 2, sequence, referenceBits: 8 } }));
  const body = encodeMobileOriginate(
    { ticketId: `C-${from}-${sequence}`, source: { address: from }, destination: { address: '24273' }, message: { type: 'hexEncodedText', udh: true, content: header + encodeHex(`${from}/${sequence};`, 'GSM') } },
    'json',
  );
  return { method: 'POST', headers: JSON_HEADERS, body };
}

const handsets = (from: number, count: number): string[] => Array.from({ length: count }, (_, i) => `4477009${String(from + i).padStart(5, '0')}`);

describe('the Redis stores on a 3-master Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let redis: Cluster;
  let handler: WebhookHandler;
  const handled = new Map<string, number>();
  const errors: WebhookError[] = [];
  /** Called once from within the next handler: a fault that strikes with traffic flowing. */
  let midTraffic: (() => void) | undefined;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    redis = new Cluster([...cluster.startupNodes], { clusterRetryStrategy: () => 100 });
    // Connected, with the slots known, before the first callback (not a part of any bound checked).
    await new Promise((resolve) => redis.once('ready', resolve));
    const sendCommand: RedisCommand = ([name = '', ...args]) => redis.call(name, ...args);
    handler = createWebhookHandler({
      allowUnauthenticated: true,
      // The default bound (2 s): what the last case waits for, once per round.
      store: createRedisDuplicateStore({ sendCommand }),
      reassemblyStore: createRedisReassemblyStore({ sendCommand }),
      onInboundMessage: (m) => {
        expect(m.complete).toBe(true);
        handled.set(m.text ?? '', (handled.get(m.text ?? '') ?? 0) + 1);
        const strike = midTraffic;
        midTraffic = undefined;
        strike?.();
      },
      onError: (e) => errors.push(e),
    });
  });

  afterAll(async () => {
    handler?.close();
    redis?.disconnect();
    await cluster?.stop();
  });

  /** Posts both parts of each message; the statuses in order. */
  const deliver = async (from: readonly string[]): Promise<number[]> => {
    const answers = await Promise.all(from.flatMap((h) => [handler.handle(part(h, 1)), handler.handle(part(h, 2))]));
    return answers.map((a) => a.status);
  };
  const handedOnce = (from: readonly string[]): void => {
    for (const h of from) expect(handled.get(`${h}/1;${h}/2;`), h).toBe(1);
  };

  it('joins every message once with the default key prefix, its keys spread over the masters', async () => {
    const first = handsets(0, 24);
    expect(await deliver(first)).toEqual(Array(48).fill(200));
    handedOnce(first);
    expect(errors).toEqual([]);
    // Handed-over tickets stay for the retry window: count the masters holding some.
    const holding = await Promise.all(cluster.nodes.map(async (n) => Number(await redis.nodes('master').find((m) => m.options.port === n.port)?.dbsize())));
    expect(holding.filter((keys) => keys > 0).length).toBeGreaterThan(1);
    expect(holding.reduce((a, b) => a + b)).toBeGreaterThan(0);
  });

  it('goes on after every node forgot its scripts (SCRIPT FLUSH), before and under traffic: EVAL on the node that answered NOSCRIPT', async () => {
    await Promise.all(redis.nodes('master').map((node) => node.script('FLUSH')));
    const next = handsets(100, 12);
    expect(await deliver(next)).toEqual(Array(24).fill(200));
    handedOnce(next);
    // Again while callbacks flow: flushed from every master as the first message is handed over.
    // EVALSHA answered NOSCRIPT (Redis counts them as failed calls), summed over the masters.
    const noScript = async (): Promise<number> =>
      (await Promise.all(redis.nodes('master').map((node) => node.info('commandstats')))).reduce((sum, info) => sum + Number(/cmdstat_evalsha:.*failed_calls=(\d+)/.exec(info)?.[1] ?? 0), 0);
    const missedBefore = await noScript();
    let flushed: Promise<unknown> | undefined;
    const flowing = handsets(150, 24);
    let handedBeforeFlush = -1;
    midTraffic = () => {
      handedBeforeFlush = flowing.filter((h) => handled.has(`${h}/1;${h}/2;`)).length;
      flushed = Promise.all(redis.nodes('master').map((node) => node.script('FLUSH')));
    };
    expect(await deliver(flowing)).toEqual(Array(48).fill(200));
    expect(await flushed).toEqual(['OK', 'OK', 'OK']);
    expect(handedBeforeFlush).toBe(1); // the other 23 messages were taken after the flush was sent
    // Their scripts, sent behind the flush on the same connections, met NOSCRIPT and ran by source.
    expect(await noScript()).toBeGreaterThan(missedBefore);
    handedOnce(flowing);
    expect(errors).toEqual([]);
  });

  it('answers 503 for the slots of a master that is down, and hands each message over once after it restarted', async () => {
    const victim = cluster.nodes[0] as TestRedisCluster['nodes'][number];
    await victim.kill();
    const during = handsets(200, 8);
    const answers = await deliver(during);
    // The messages whose shard the dead master served are answered 503 at the bound; the others are taken.
    expect(answers.filter((s) => s !== 503 && s !== 200)).toEqual([]);
    expect(answers.filter((s) => s === 503).length).toBeGreaterThan(0);
    await victim.restart();
    // The service retries: the parts of each message are posted again until both are answered 200.
    for (let round = 0; round < 20; round++) {
      const again = await deliver(during);
      if (again.every((s) => s === 200)) break;
    }
    handedOnce(during);
  });
});
