/** startRedis: a real redis-server on a free loopback port, answering, stopped by the runner or by hand. */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../src/index.js';

/** Sends one RESP command and resolves with the first reply line. */
function command(redis: Pick<TestRedis, 'host' | 'port'>, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(redis.port, redis.host);
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      reply += chunk;
      if (reply.includes('\r\n')) {
        socket.end();
        resolve(reply.split('\r\n')[0] ?? '');
      }
    });
    socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
  });
}

const refused = (redis: Pick<TestRedis, 'host' | 'port'>): Promise<boolean> => command(redis, 'PING').then(() => false, () => true);

describe('startRedis', () => {
  it('runs redis-server on a free loopback port, and stops it', async () => {
    const redis = await startRedis({ teardown: 'manual' });
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(redis.connection).toEqual({ host: '127.0.0.1', port: redis.port });
    expect(await command(redis, 'PING')).toBe('+PONG');
    expect(await command(redis, 'SET', 'k', 'v')).toBe('+OK');
    await redis.stop();
    await redis.close(); // once, however often
    expect(redis.process.exitCode !== null || redis.process.signalCode !== null).toBe(true);
    expect(await refused(redis)).toBe(true);
  });

  it('gives two servers two ports', async () => {
    const [a, b] = await Promise.all([startRedis({ teardown: 'manual' }), startRedis({ teardown: 'manual' })]);
    expect(a.port).not.toBe(b.port);
    await Promise.all([a.stop(), b.stop()]);
  });

  let leftOver: TestRedis | undefined;
  it('is stopped by the runner after the test that started it (the vitest entry)', async () => {
    leftOver = await startRedis();
    expect(await command(leftOver, 'PING')).toBe('+PONG');
  });
  it('(the server of the test before is gone)', async () => {
    expect(leftOver).toBeDefined();
    expect(await refused(leftOver as TestRedis)).toBe(true);
  });

  it('says how to install it when the binary is missing, and checks its options', async () => {
    await expect(startRedis({ binary: 'redis-server-that-is-not-there', teardown: 'manual' })).rejects.toThrow(/not installed .*apt-get install redis-server/);
    await expect(startRedis({ startTimeoutMs: 0, teardown: 'manual' })).rejects.toThrow(TypeError);
  });
});
