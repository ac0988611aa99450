/**
 * The queue on BullMQ 6 with ioredis 5 (an application that moved BullMQ alone; BullMQ 6 takes
 * ioredis 5 or later as its peer): the same source, its `bullmq` import swapped for BullMQ 6.
 */
import { vi } from 'vitest';
import { versionsCase } from './versions-case.js';

vi.mock('bullmq', async () => await import('bullmq-6'));

versionsCase('bullmq6-ioredis5', async () => ({
  bullmq: { major: '6', version: (await import('bullmq-6/package.json', { with: { type: 'json' } })).default.version, Queue: (await import('bullmq-6')).Queue },
  ioredis: { major: '5', version: (await import('ioredis/package.json', { with: { type: 'json' } })).default.version, Redis: (await import('ioredis')).Redis },
}));
