/**
 * The servers of the overhead benchmark, run in a child process so that their work does not share
 * the client's event loop: an instant server (202 with `Location` at once: nothing hides the
 * client's cost) and the sandbox (a service that authenticates, validates and stores each send).
 * Sends `{ instant, sandbox }` base URLs to the parent and stops when the parent disconnects.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createManualClock, createSandbox } from '@smsv4/sandbox';

let ticket = 0;
const instant = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    ticket = (ticket + 1) % 100_000;
    const id = `AAAAA-BBBBB-CCCCC-${String(ticket).padStart(5, '0')}`;
    res.writeHead(202, { location: `http://127.0.0.1/sms/v4/mt/${id}`, 'x-request-id': `req-${id}`, 'content-length': '0' });
    res.end();
  });
});
await new Promise<void>((resolve) => instant.listen(0, '127.0.0.1', resolve));
// A manual clock: no delivery timers run during the measurement.
const sandbox = createSandbox({ clock: createManualClock() });
const sandboxServer = await sandbox.listen({ port: 0, host: '127.0.0.1' });

process.send?.({ instant: `http://127.0.0.1:${(instant.address() as AddressInfo).port}`, sandbox: sandboxServer.url });
process.on('disconnect', () => {
  instant.close();
  instant.closeAllConnections();
  void sandboxServer.close().then(() => sandbox.close());
});
