import { estimateSegments } from '@smsv4/core';
import { SegmentedMessage } from 'sms-segments-calculator';
import splitSms from 'split-sms';
import { messageCorpus } from './corpus.js';
import type { BenchSuite } from './harness.js';

const corpus = messageCorpus(1000);

/** Segment estimation with parts returned, against the two popular counters, on one corpus. */
export const segments: BenchSuite = {
  id: 'segments',
  title: 'Segment estimation (parts returned) vs split-sms and sms-segments-calculator',
  path: 'Segment estimation (parts returned)',
  items: corpus.length,
  itemName: 'messages',
  baseline: {
    name: 'split-sms',
    fn: () => {
      let sink = 0;
      for (const text of corpus) sink += splitSms.split(text).parts.length;
      return sink;
    },
  },
  subjects: [
    {
      name: 'estimateSegments',
      fn: () => {
        let sink = 0;
        for (const text of corpus) sink += estimateSegments(text).parts.length;
        return sink;
      },
    },
    {
      name: 'sms-segments-calculator',
      fn: () => {
        let sink = 0;
        for (const text of corpus) sink += new SegmentedMessage(text).segmentsCount;
        return sink;
      },
    },
  ],
  target: { kind: 'min-speed-ratio', value: 10, subject: 'estimateSegments' },
  notes: () => {
    let differSplit = 0;
    let differCalc = 0;
    for (const text of corpus) {
      const ours = estimateSegments(text).segments;
      if (ours !== splitSms.split(text).parts.length) differSplit++;
      if (ours !== new SegmentedMessage(text).segmentsCount) differCalc++;
    }
    return [
      `Corpus: ${corpus.length} generated texts (GSM with extension characters on 153-septet boundaries, emoji on 67-unit boundaries, CJK, Latin with curly quotes).`,
      `Segment counts differing from split-sms: ${differSplit}; from sms-segments-calculator: ${differCalc} (each kind of difference is explained in packages/core/src/text tests: escape pairs and surrogate pairs split by the peers).`,
    ];
  },
};
