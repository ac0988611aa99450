import type * as Compiler from '@sinclair/typebox/compiler';
import type * as FastXmlParser from 'fast-xml-parser';
import { describe, expect, it, vi } from 'vitest';
import { loadFixture } from '../test/fixtures.js';
import { lazy } from './lazy.js';

// Counts the schema compilations and XML parser instances core makes, to show that importing core
// makes none of them and that the first decode makes them.
const made = vi.hoisted(() => ({ compiled: 0, parsers: 0 }));

vi.mock('@sinclair/typebox/compiler', async (importOriginal) => {
  const original = await importOriginal<typeof Compiler>();
  const Compile: typeof original.TypeCompiler.Compile = (...args) => {
    made.compiled++;
    return original.TypeCompiler.Compile(...args);
  };
  return { ...original, TypeCompiler: { ...original.TypeCompiler, Compile } };
});

vi.mock('fast-xml-parser', async (importOriginal) => {
  const original = await importOriginal<typeof FastXmlParser>();
  class XMLParser extends original.XMLParser {
    constructor(...args: ConstructorParameters<typeof original.XMLParser>) {
      super(...args);
      made.parsers++;
    }
  }
  return { ...original, XMLParser };
});

describe('lazy', () => {
  it('makes the value on the first call only and returns that same value after', () => {
    const make = vi.fn(() => ({ made: true }));
    const get = lazy(make);
    expect(make).not.toHaveBeenCalled();
    const first = get();
    expect(get()).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('keeps a falsy or undefined value without making it again', () => {
    const make = vi.fn((): undefined => undefined);
    const get = lazy(make);
    get();
    get();
    expect(make).toHaveBeenCalledTimes(1);
  });
});

describe('importing core', () => {
  it('compiles no schema and creates no XML parser until a decoder needs one', async () => {
    vi.resetModules();
    const core = await import('./index.js');
    expect(made).toEqual({ compiled: 0, parsers: 0 });

    const decoded = core.decodeDeliveryReceipt(loadFixture('delivery-receipt/single-delivered.xml'), 'xml');
    expect(decoded.ok).toBe(true);
    expect(made.compiled).toBeGreaterThan(0);
    // core reads XML itself: fast-xml-parser is created only for a document that needs it (an
    // element named like a member of Object.prototype), and once.
    expect(made.parsers).toBe(0);
    expect(core.parseXmlDocument('<r><toString/></r>').ok).toBe(true);
    expect(core.parseXmlDocument('<r><valueOf/></r>').ok).toBe(true);
    expect(made.parsers).toBe(1);

    // Compiled once: a second decode compiles nothing more.
    const after = { ...made };
    expect(core.decodeDeliveryReceipt(loadFixture('delivery-receipt/single-delivered.xml'), 'xml').ok).toBe(true);
    expect(made).toEqual(after);
  });
});
