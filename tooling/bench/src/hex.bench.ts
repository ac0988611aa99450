import { decodeHex, encodeHex } from '@smsv4/core';
import type { BenchSuite } from './harness.js';

const texts = ['Your order 5512 is ready. Café ñandú £5', 'Ünïcödé – “quoted” 😀 您好世界', 'plain ascii text of a typical length for one part'];
const BATCH = 300;

function bufferEncodeDecode(text: string): number {
  const utf16 = Buffer.from(text, 'utf16le').swap16().toString('hex');
  const utf8 = Buffer.from(text, 'utf8').toString('hex');
  const back16 = Buffer.from(utf16, 'hex').swap16().toString('utf16le');
  const back8 = Buffer.from(utf8, 'hex').toString('utf8');
  return back16.length + back8.length;
}

function coreEncodeDecode(text: string): number {
  const utf16 = encodeHex(text, 'UTF-16');
  const utf8 = encodeHex(text, 'UTF-8');
  const back16 = decodeHex(utf16, 'UTF-16');
  const back8 = decodeHex(utf8, 'UTF-8');
  if (!back16.ok || !back8.ok) throw new Error('round trip failed');
  return back16.value.length + back8.value.length;
}

/** Hex encode + decode (UTF-16 BE and UTF-8) in core without Buffer vs Node's Buffer. */
export const hex: BenchSuite = {
  id: 'hex',
  title: 'Hex encode + decode (UTF-16 BE, UTF-8) without Buffer vs Buffer',
  path: 'hex encode + decode',
  items: BATCH * texts.length,
  itemName: 'texts',
  baseline: {
    name: 'Buffer',
    fn: () => {
      let sink = 0;
      for (let i = 0; i < BATCH; i++) for (const t of texts) sink += bufferEncodeDecode(t);
      return sink;
    },
  },
  subjects: [
    {
      name: 'encodeHex/decodeHex',
      fn: () => {
        let sink = 0;
        for (let i = 0; i < BATCH; i++) for (const t of texts) sink += coreEncodeDecode(t);
        return sink;
      },
    },
  ],
  target: { kind: 'min-speed-ratio', value: 0.7, subject: 'encodeHex/decodeHex' },
};
