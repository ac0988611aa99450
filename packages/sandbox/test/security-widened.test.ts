/**
 * The options that widen the sandbox's guards, in-process: `allowedHosts: 'any'` takes every `Host`,
 * `callbackHosts: 'any'` lets callbacks go to every host; without them both are refused.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock, createSandbox } from '../src/index.js';

const stateFrom = (sandbox: ReturnType<typeof createSandbox>, host: string): Promise<Response> =>
  sandbox.fetch(new Request('http://127.0.0.1/__sandbox/api/state', { headers: { host, authorization: `Bearer ${sandbox.adminToken}` } }));

const inbound = { from: '447700900123', to: '12345', text: 'x', url: 'http://10.0.0.8/hook' };

describe('options that widen the guards', () => {
  it("allowedHosts: 'any' takes a Host the default refuses", async () => {
    const strict = createSandbox({ clock: createManualClock() });
    const open = createSandbox({ clock: createManualClock(), allowedHosts: 'any' });
    try {
      expect((await stateFrom(strict, 'attacker.example')).status).toBe(403);
      expect((await stateFrom(open, 'attacker.example')).status).toBe(200);
    } finally {
      await Promise.all([strict.close(), open.close()]);
    }
  });

  it("callbackHosts: 'any' lets a callback go to a host the default refuses", async () => {
    const strict = createSandbox({ clock: createManualClock() });
    const open = createSandbox({ clock: createManualClock(), callbackHosts: 'any' });
    try {
      expect(() => strict.injectInbound(inbound)).toThrow('posting to 10.0.0.8 is not allowed');
      expect(open.injectInbound(inbound).ticketIds).toHaveLength(1);
      expect(open.snapshot().inbound[0]).toMatchObject({ url: inbound.url });
    } finally {
      await Promise.all([strict.close(), open.close()]);
    }
  });
});
