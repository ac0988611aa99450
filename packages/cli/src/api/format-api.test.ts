import picocolors from 'picocolors';
import { describe, expect, it } from 'vitest';
import { dateText, formatStatus } from './format-api.js';

const plain = picocolors.createColors(false);

describe('formatStatus', () => {
  it('shows a timestamp as the service wrote it, with its UTC instant when it carries an offset', () => {
    const text = formatStatus(
      {
        ticketId: 'A1-B2',
        code: 4,
        description: 'Message delivered',
        deliveryDate: '2015-08-29T15:10:03.029-05:00',
        totalSegments: 2,
        segments: [
          { segmentNumber: 1, code: 4, deliveryDate: '2015-08-29T20:10:02.500Z' },
          { segmentNumber: 2, code: 4, deliveryDate: '2015-08-30T01:40:03.029+05:30' },
        ],
      },
      plain,
    );
    expect(text).toContain('Delivered     2015-08-29T15:10:03.029-05:00 (2015-08-29T20:10:03.029Z)\n');
    expect(text).toContain('    1  4  2015-08-29T20:10:02.500Z\n');
    expect(text).toContain('    2  4  2015-08-30T01:40:03.029+05:30 (2015-08-29T20:10:03.029Z)\n');
  });

  it('writes a UTC timestamp alone, and an offset one with its instant', () => {
    expect(dateText('2024-03-14T09:26:53.000Z')).toBe('2024-03-14T09:26:53.000Z');
    expect(dateText('2024-03-14T09:26:53Z')).toBe('2024-03-14T09:26:53Z');
    expect(dateText('2024-03-14T09:26:53+00:00')).toBe('2024-03-14T09:26:53+00:00 (2024-03-14T09:26:53.000Z)');
  });
});
