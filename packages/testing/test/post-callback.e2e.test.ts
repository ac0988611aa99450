/** postCallback against a recording receiver on loopback: headers, retries on the compressed clock, reports. */
import { describe, expect, it } from 'vitest';
import { buildDeliveryReceipt, buildInboundMessage, postCallback, serve, startCallbackReceiver } from '../src/index.js';

describe('postCallback', () => {
  it('posts like the service: method, headers, body', async () => {
    const receiver = await startCallbackReceiver();
    const receipt = buildDeliveryReceipt({ format: 'json' });
    const report = await postCallback(receiver.url, receipt, { headers: { authorization: 'Basic b3BlbjptYXJrZXQ=' } });
    expect(report).toMatchObject({ delivered: true, outcome: 'delivered', status: 200, body: '', warnings: [] });
    expect(report.attempts).toHaveLength(1);
    const [request] = receiver.received;
    expect(request).toMatchObject({ method: 'POST', url: '/callbacks', body: receipt.body });
    expect(request?.headers).toMatchObject({ 'content-type': 'application/json; charset=UTF-8', 'x-api-version': '4', 'user-agent': 'smsv4-testing', authorization: 'Basic b3BlbjptYXJrZXQ=' });
    expect(request?.headers['content-length']).toBe(String(new TextEncoder().encode(receipt.body).length));
  });

  it('tells the format of a raw body from its first character, or takes it from the options', async () => {
    const receiver = await startCallbackReceiver();
    await postCallback(receiver.url, '  <deliveryReceipt/>');
    await postCallback(receiver.url, '{}');
    await postCallback(receiver.url, 'anything', { format: 'xml' });
    expect(receiver.received.map((r) => r.headers['content-type'])).toEqual(['application/xml; charset=UTF-8', 'application/json; charset=UTF-8', 'application/xml; charset=UTF-8']);
  });

  it('retries on the service schedule, on a compressed clock, until the receiver takes it', async () => {
    const receiver = await startCallbackReceiver();
    receiver.script(500, 'drop', 503);
    const started = performance.now();
    const report = await postCallback(receiver.url, buildDeliveryReceipt(), { retries: 5 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(report.delivered).toBe(true);
    expect(report.attempts.map((a) => [a.number, a.at, a.status ?? 'no answer'])).toEqual([
      [1, 0, 500],
      [2, 10_000, 'no answer'],
      [3, 30_000, 503],
      [4, 70_000, 200],
    ]);
    expect(report.attempts[0]?.body).toBe('receiver says 500');
    expect(report.attempts[1]?.error).toBeTypeOf('string');
    expect(receiver.received).toHaveLength(4);
  });

  it('gives up when the retries or the window are spent', async () => {
    const receiver = await startCallbackReceiver({ defaultAnswer: 500 });
    const none = await postCallback(receiver.url, buildDeliveryReceipt());
    expect(none).toMatchObject({ delivered: false, outcome: 'gave-up', status: 500, body: 'receiver says 500', warnings: ['answered 500: the service expects 200 for a receipt and will retry'] });
    const windowed = await postCallback(receiver.url, buildDeliveryReceipt(), { retries: { windowMs: 60_000 } });
    expect(windowed.attempts.map((a) => a.at)).toEqual([0, 10_000, 30_000]);
    // The whole 24 hours of a receipt: 9 retries 10 s doubling to 2560 s (5110 s in all), then 22
    // hourly ones while they fit in the day.
    const day = await postCallback(receiver.url, buildDeliveryReceipt(), { retries: {} });
    expect(day.attempts.at(-1)?.at).toBe((5110 + 22 * 3600) * 1000);
    expect(day.attempts.length).toBe(1 + 9 + 22);
    // An inbound message is retried for 3 days.
    const inbound = await postCallback(receiver.url, buildInboundMessage({ text: 'STOP' }), { retries: { timeScale: 1_000_000 } });
    expect(inbound.attempts.at(-1)?.at).toBeGreaterThan(2 * 24 * 3_600_000);
  });

  it('reports an answer the service does not expect, and one that never comes', async () => {
    const app = await serve((req, res) => {
      if (req.url === '/created') res.writeHead(201).end();
      else if (req.url === '/chatty') res.writeHead(200).end('thanks!');
      // /silent never answers
    });
    const inbound = buildInboundMessage({ text: 'hello' });
    expect((await postCallback(`${app.url}/created`, inbound)).warnings).toEqual([]);
    expect((await postCallback(`${app.url}/created`, buildDeliveryReceipt())).warnings).toEqual(['answered 201: the service expects 200 for a receipt']);
    expect((await postCallback(`${app.url}/chatty`, inbound)).warnings).toEqual(['answered 200 with a body of 7 characters: the service expects an empty body']);
    const silent = await postCallback(`${app.url}/silent`, inbound, { timeoutMs: 200 });
    expect(silent).toMatchObject({ delivered: false, outcome: 'gave-up', body: '' });
    expect(silent.attempts[0]?.error).toMatch(/timeout|aborted/i);
  });

  it('refuses bad options', async () => {
    await expect(postCallback('http://127.0.0.1:9/', '{}', { retries: -1 })).rejects.toThrow('retries must be a whole number of at least 0');
    await expect(postCallback('http://127.0.0.1:9/', '{}', { retries: { factor: 0.5 } })).rejects.toThrow('factor must be a finite number of at least 1');
    await expect(postCallback('not a url', '{}')).rejects.toThrow(TypeError);
  });
});
