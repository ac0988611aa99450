/**
 * The queue on BullMQ 5 with ioredis 6 (an application that moved ioredis alone): the same source,
 * its `ioredis` import swapped for ioredis 6; BullMQ 5 is given ioredis 6 connections.
 */
import { vi } from 'vitest';
import { versionsCase } from './versions-case.js';

vi.mock('ioredis', async () => await import('ioredis-6'));

versionsCase('bullmq5-ioredis6', async () => ({
  bullmq: { major: '5', version: (await import('bullmq/package.json', { with: { type: 'json' } })).default.version, Queue: (await import('bullmq')).Queue },
  ioredis: { major: '6', version: (await import('ioredis-6/package.json', { with: { type: 'json' } })).default.version, Redis: (await import('ioredis-6')).Redis },
}));
