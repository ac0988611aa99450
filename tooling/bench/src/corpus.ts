/**
 * A deterministic corpus of message texts for the segment benchmarks: mixed lengths, GSM text with
 * extension characters placed on part boundaries, emoji on UCS-2 part boundaries, CJK, Latin text with
 * a single UCS-2 character. Seeded, so every run measures the same texts.
 */
const GSM_WORDS = ['hello', 'your', 'order', 'is', 'ready', 'code:', '12345', 'thanks!', 'see', 'you', '@', 'soon', '£5', 'café'];
const EXT = ['€', '{', '}', '[', ']', '~', '|', '^', '\\'];
const EMOJI = ['😀', '👍🏽', '🎉', '👨‍👩‍👧', '❤️'];
const CJK = '您好世界訂單已準備好請查收感謝您的耐心等待';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function words(next: () => number, length: number): string {
  let out = '';
  while (out.length < length) out += `${GSM_WORDS[Math.floor(next() * GSM_WORDS.length)]} `;
  return out.slice(0, length);
}

/** `count` texts; the kinds rotate so each appears equally. */
export function messageCorpus(count = 1000, seed = 42): string[] {
  const next = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    if (kind === 0) out.push(words(next, 20 + Math.floor(next() * 300)));
    else if (kind === 1) {
      // an extension character on the boundary of a 153-septet part
      const k = 1 + Math.floor(next() * 3);
      out.push(`${words(next, 153 * k - 1)}${EXT[Math.floor(next() * EXT.length)]}${words(next, 10)}`);
    } else if (kind === 2) {
      // an emoji straddling the boundary of a 67-unit part
      const k = 1 + Math.floor(next() * 3);
      out.push(`${words(next, 67 * k - 1)}${EMOJI[Math.floor(next() * EMOJI.length)]}${words(next, 20)}`);
    } else if (kind === 3) {
      let cjk = '';
      const n = 10 + Math.floor(next() * 150);
      for (let j = 0; j < n; j++) cjk += CJK[Math.floor(next() * CJK.length)];
      out.push(cjk);
    } else out.push(`${words(next, 100 + Math.floor(next() * 200))}“quoted”`);
  }
  return out;
}
