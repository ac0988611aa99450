import { estimateSegments } from '/work/main/packages/core/src/text/segments.ts';
import { encodeHex, decodeHex } from '/work/main/packages/core/src/text/hex.ts';
import splitSms from 'split-sms';
const rnd = (n) => { let s = 1234 + n; return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff; };
const r = rnd(1);
const pick = (a) => a[Math.floor(r() * a.length)];
const words = ['Hello','your','code','is','1234','Thanks','for','ordering','from','Acme','{promo}','€5','off','today!','Visit','https://ex.am/ple','café','naïve','Привет','мир','😀','👍🏽','日本語','ok','See','you','soon.','Reply','STOP','to','opt-out'];
const corpus = [];
for (let i = 0; i < 1000; i++) {
  const len = 3 + Math.floor(r() * 60);
  const ws = []; const uni = r() < 0.3;
  for (let k = 0; k < len; k++) { let w = pick(words); if (!uni && /[^\x00-\x7f€]/.test(w)) w = 'abc'; ws.push(w); }
  corpus.push(ws.join(' '));
}
const rate = (list, fn, ms = 150) => { let n = 0; const t = performance.now(); let dt = 0; while ((dt = performance.now() - t) < ms) { for (const m of list) fn(m); n += list.length; } return n / dt * 1000; };
const duel = (name, list, ours, base) => {
  let a = 0, b = 0;
  for (let i = 0; i < 7; i++) { a = Math.max(a, rate(list, ours)); b = Math.max(b, rate(list, base)); }
  console.log(`${name}: ours ${Math.round(a)}/s, baseline ${Math.round(b)}/s, ratio ${(a / b).toFixed(2)}`);
};
const only = process.argv[2] ?? 'all';
if (only === 'all' || only === 'seg') {
  duel('estimate (parts) vs split-sms, mixed', corpus, (m) => estimateSegments(m), (m) => splitSms.split(m));
  const by = (f) => corpus.filter(f);
  duel('  gsm single', by(m => { const e = estimateSegments(m); return e.encoding === 'GSM' && e.segments === 1; }), (m) => estimateSegments(m), (m) => splitSms.split(m));
  duel('  gsm multi', by(m => { const e = estimateSegments(m); return e.encoding === 'GSM' && e.segments > 1; }), (m) => estimateSegments(m), (m) => splitSms.split(m));
  duel('  ucs2', by(m => estimateSegments(m).encoding === 'UCS-2'), (m) => estimateSegments(m), (m) => splitSms.split(m));
  duel('  bare counting loop (reference)', corpus, (m) => { let s = 0; for (let i = 0; i < m.length; i++) s += m.charCodeAt(i) < 128 ? 1 : 2; return s; }, (m) => splitSms.split(m));
}
if (only === 'all' || only === 'hex') {
  const lat = corpus.map(m => m.replace(/[^\x00-\xff]/g, 'é'));
  duel('Latin-1 encode', lat, (m) => encodeHex(m, 'Latin-1'), (m) => Buffer.from(m, 'latin1').toString('hex').toUpperCase());
  const latHex = lat.map(m => encodeHex(m, 'Latin-1'));
  duel('Latin-1 decode', latHex, (h) => decodeHex(h, 'Latin-1'), (h) => Buffer.from(h, 'hex').toString('latin1'));
  duel('UTF-16 encode', corpus, (m) => encodeHex(m, 'UTF-16'), (m) => { const b = Buffer.from(m, 'utf16le'); b.swap16(); return b.toString('hex').toUpperCase(); });
  const uh = corpus.map(m => encodeHex(m, 'UTF-16'));
  duel('UTF-16 decode', uh, (h) => decodeHex(h, 'UTF-16'), (h) => { const b = Buffer.from(h, 'hex'); b.swap16(); return b.toString('utf16le'); });
  duel('UTF-8 encode', corpus, (m) => encodeHex(m, 'UTF-8'), (m) => Buffer.from(m, 'utf8').toString('hex').toUpperCase());
  const eh = corpus.map(m => encodeHex(m, 'UTF-8'));
  duel('UTF-8 decode', eh, (h) => decodeHex(h, 'UTF-8'), (h) => Buffer.from(h, 'hex').toString('utf8'));
}
