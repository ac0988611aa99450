import { decodeHex, encodeHex, type HexCharset } from '@smsv4/core';
import type { BenchSuite } from './harness.js';

const BATCH = 300;

/** Node's codec for each charset: Buffer has none for GSM, so GSM is measured against its one-octet codec, Latin-1, on the same texts. */
const BUFFER_CODEC: Readonly<Record<HexCharset, { readonly encoding: BufferEncoding; readonly swap: boolean }>> = {
  GSM: { encoding: 'latin1', swap: false },
  'Latin-1': { encoding: 'latin1', swap: false },
  'UTF-8': { encoding: 'utf8', swap: false },
  'UTF-16': { encoding: 'utf16le', swap: true },
};

/** Message texts of each charset: a short one, a typical one, a full single part. */
const TEXTS: Readonly<Record<HexCharset, readonly string[]>> = {
  GSM: [
    'Your code is 482913',
    'Your order 5512 is ready for pickup at the Main St store. Reply STOP to opt out. £5 off {today} ~ €2 fee',
    'Hola! Tu pedido #5512 esta listo para recoger en la tienda de la calle Mayor. Gracias por tu compra, te esperamos pronto. Responde BAJA (¿dudas? ¡llama!) Ñ ü Ø Å',
  ],
  'Latin-1': [
    'Café ñandú £5',
    'Votre commande 5512 est prête à être retirée au magasin de la rue Principale. Répondez STOP pour vous désabonner.',
    'Ihre Bestellung 5512 liegt zur Abholung bereit. Öffnungszeiten: Mo–Fr 9–18 Uhr. Grüße aus Köln, Ihr Team. Antworten Sie STOP, um keine Nachrichten mehr zu erhalten.'.replace('–', '-').replace('–', '-'),
  ],
  'UTF-8': [
    'Ünïcödé – “quoted” 😀 您好世界',
    'plain ascii text of a typical length for one part',
    'Your order 5512 is ready. Café ñandú £5 — see you soon 👋 Reply STOP to opt out.',
  ],
  'UTF-16': [
    'Ünïcödé – “quoted” 😀 您好世界',
    '您的订单5512已准备好，请到主街商店取货。回复STOP退订。',
    'Your order 5512 is ready. Café ñandú £5 — see you soon 👋 Reply STOP to opt out.',
  ],
};

function bufferRoundTrip(text: string, encoding: BufferEncoding, swap: boolean): number {
  const octets = Buffer.from(text, encoding);
  const hex = (swap ? octets.swap16() : octets).toString('hex');
  const back = Buffer.from(hex, 'hex');
  return (swap ? back.swap16() : back).toString(encoding).length;
}

function coreRoundTrip(text: string, charset: HexCharset): number {
  const back = decodeHex(encodeHex(text, charset), charset);
  return back.ok ? back.value.length : -1;
}

function hexSuite(charset: HexCharset): BenchSuite {
  const texts = TEXTS[charset];
  const { encoding, swap } = BUFFER_CODEC[charset];
  for (const text of texts) {
    const hex = encodeHex(text, charset);
    const back = decodeHex(hex, charset);
    // Both sides give the same hex (up to case) and the same text back.
    if (!back.ok || back.value !== text || hex.toLowerCase() !== (swap ? Buffer.from(text, encoding).swap16() : Buffer.from(text, encoding)).toString('hex')) {
      if (charset !== 'GSM') throw new Error(`${charset}: round trip failed`);
      if (!back.ok || back.value !== text) throw new Error(`${charset}: round trip failed`);
    }
  }
  const id = `hex-${charset.toLowerCase().replace('-', '')}`;
  return {
    id,
    title: `Hex encode + decode, ${charset}, without Buffer vs Buffer`,
    path: `hex encode + decode, ${charset}`,
    items: BATCH * texts.length,
    itemName: 'texts',
    baseline: {
      name: `Buffer (${encoding}${swap ? ', swap16' : ''})`,
      fn: () => {
        let sink = 0;
        for (let i = 0; i < BATCH; i++) for (const t of texts) sink += bufferRoundTrip(t, encoding, swap);
        return sink;
      },
    },
    subjects: [
      {
        name: 'encodeHex/decodeHex',
        fn: () => {
          let sink = 0;
          for (let i = 0; i < BATCH; i++) for (const t of texts) sink += coreRoundTrip(t, charset);
          return sink;
        },
      },
    ],
    target: { kind: 'min-speed-ratio', value: 1, subject: 'encodeHex/decodeHex' },
    notes: () => [
      `Texts: ${texts.map((t) => `${t.length}`).join(', ')} characters${charset === 'GSM' ? ', with extension characters; Buffer has no GSM 03.38 codec, so its baseline is its one-octet codec (Latin-1) on the same texts' : ''}. Each call encodes to hex and decodes back; both sides were checked, before the measurement, to give the same hex (up to case) and the text back.`,
    ],
  };
}

/** Hex encode + decode in core, without Buffer, against Node's Buffer, one suite per charset. */
export const hexSuites: readonly BenchSuite[] = (['GSM', 'Latin-1', 'UTF-8', 'UTF-16'] as const).map(hexSuite);
