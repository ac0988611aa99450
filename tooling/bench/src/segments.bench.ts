import { estimateSegments } from '@smsv4/core';
import { SegmentedMessage } from 'sms-segments-calculator';
import splitSms from 'split-sms';
import { messageCorpus } from './corpus.js';
import type { BenchSuite } from './harness.js';

const corpus = messageCorpus(1000);

const estimator = {
  name: 'estimateSegments',
  fn: () => {
    let sink = 0;
    for (const text of corpus) sink += estimateSegments(text).parts.length;
    return sink;
  },
};

/**
 * Segment estimation with parts returned, against split-sms on one corpus. sms-segments-calculator is
 * measured in a suite of its own: a batch of it takes seconds, and sharing rounds with it would leave
 * the fast counters a handful of samples per round.
 */
export const segments: BenchSuite = {
  id: 'segments',
  title: 'Segment estimation (parts returned) vs split-sms',
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
  subjects: [estimator],
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

/** Segment estimation against sms-segments-calculator, on the same corpus. */
export const segmentsVsCalculator: BenchSuite = {
  id: 'segments-calculator',
  title: 'Segment estimation (parts returned) vs sms-segments-calculator',
  path: 'Segment estimation (parts returned), against sms-segments-calculator',
  items: corpus.length,
  itemName: 'messages',
  baseline: {
    name: 'sms-segments-calculator',
    fn: () => {
      let sink = 0;
      for (const text of corpus) sink += new SegmentedMessage(text).segmentsCount;
      return sink;
    },
  },
  subjects: [estimator],
  target: { kind: 'min-speed-ratio', value: 10, subject: 'estimateSegments' },
};
