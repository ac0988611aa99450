/**
 * The queue on BullMQ 6 and ioredis 6 (the suites' other files run BullMQ 5 and ioredis 5): the
 * same source, its `bullmq` and `ioredis` imports swapped for the 6.x releases; enqueue, send,
 * state, close.
 */
import { vi } from 'vitest';
import { versionsCase } from './versions-case.js';

vi.mock('bullmq', async () => await import('bullmq-6'));
vi.mock('ioredis', async () => await import('ioredis-6'));

versionsCase('bullmq6-ioredis6', async () => ({
  bullmq: { major: '6', version: (await import('bullmq-6/package.json', { with: { type: 'json' } })).default.version, Queue: (await import('bullmq-6')).Queue },
  ioredis: { major: '6', version: (await import('ioredis-6/package.json', { with: { type: 'json' } })).default.version, Redis: (await import('ioredis-6')).Redis },
}));
