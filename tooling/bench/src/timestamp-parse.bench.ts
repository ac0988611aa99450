import { parseTimestamp } from '@smsv4/core';
import type { BenchSuite } from './harness.js';

const BATCH = 1000;

/** The forms the service writes: UTC with milliseconds, an offset, nine fraction digits, no fraction. */
const TEXTS = ['2026-11-21T08:34:24.123Z', '2015-08-29T15:10:03.029-05:00', '2026-11-21T14:04:24.123456789+05:30', '2026-11-21T08:34:24Z'];

/** `xs:dateTime` timestamps: core's reader (checks and UTC instant) vs `Date.parse` (a number only). */
export const timestampParse: BenchSuite = {
  id: 'timestamp-parse',
  title: 'xs:dateTime timestamp: parseTimestamp (checks + UTC instant) vs Date.parse',
  path: 'xs:dateTime timestamp parse (parseTimestamp)',
  items: BATCH,
  itemName: 'timestamps',
  baseline: {
    name: 'Date.parse',
    fn: () => {
      let sink = 0;
      for (let i = 0; i < BATCH; i++) sink += Date.parse(TEXTS[i % TEXTS.length] as string) > 0 ? 1 : 0;
      return sink;
    },
  },
  subjects: [
    {
      name: 'parseTimestamp',
      fn: () => {
        let sink = 0;
        for (let i = 0; i < BATCH; i++) sink += parseTimestamp(TEXTS[i % TEXTS.length] as string).ok ? 1 : 0;
        if (sink !== BATCH) throw new Error('every timestamp must be read');
        return sink;
      },
    },
  ],
  target: { kind: 'max-time-ratio', value: 2, subject: 'parseTimestamp' },
  notes: () => [
    `Texts: ${TEXTS.join(', ')}, in turn.`,
    'parseTimestamp also checks the calendar (a day its month lacks, hour 24, offsets beyond ±14:00) and writes the instant as text; Date.parse gives a number and takes forms xs:dateTime does not.',
  ],
};

