/**
 * The hex codecs use `Uint8Array.fromHex` / `Uint8Array.prototype.toHex` (ES2026) where the
 * runtime has them. These tests install stand-ins that follow the proposal, load a fresh copy of
 * the module, and check that it answers exactly as the portable path does.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as portable from './hex.js';

type HexStatics = { fromHex?: (hex: string) => Uint8Array };
type HexProto = { toHex?: (this: Uint8Array) => string };

const statics = Uint8Array as unknown as HexStatics;
const proto = Uint8Array.prototype as unknown as HexProto;
const hadNative = statics.fromHex !== undefined;
const calls = { fromHex: 0, toHex: 0 };

beforeAll(() => {
  if (hadNative) return;
  statics.fromHex = (hex: string): Uint8Array => {
    calls.fromHex++;
    if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/u.test(hex)) throw new SyntaxError('not hex');
    return new Uint8Array(Buffer.from(hex, 'hex'));
  };
  proto.toHex = function toHex(this: Uint8Array): string {
    calls.toHex++;
    return Buffer.from(this.buffer, this.byteOffset, this.byteLength).toString('hex');
  };
});

afterAll(() => {
  if (hadNative) return;
  delete statics.fromHex;
  delete proto.toHex;
});

describe('with the native hex methods', () => {
  it('encodes and decodes exactly as the portable path', async () => {
    vi.resetModules();
    const native = await import('./hex.js');
    expect(native).not.toBe(portable);
    const text = fc.string({ unit: 'grapheme', maxLength: 60 });
    fc.assert(
      fc.property(text, fc.constantFrom(...portable.HEX_CHARSETS), (t, charset) => {
        if (!portable.canEncodeHex(t, charset)) return;
        const hex = portable.encodeHex(t, charset);
        expect(native.encodeHex(t, charset)).toBe(hex);
        expect(native.decodeHex(hex, charset)).toEqual({ ok: true, value: t });
      }),
    );
    const anyHex = fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFxg '), maxLength: 30 }), fc.string({ maxLength: 10 }));
    fc.assert(
      fc.property(anyHex, (hex) => {
        expect(native.hexToBytes(hex)).toEqual(portable.hexToBytes(hex));
      }),
    );
    expect(native.bytesToHex(new Uint8Array([0xab, 0x01]))).toBe('AB01');
    if (!hadNative) expect(calls.fromHex > 0 && calls.toHex > 0).toBe(true);
  });
});
