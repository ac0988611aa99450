/**
 * The sandbox of the throughput benchmark, in a process of its own so that its work does not share
 * an event loop with the senders. A manual clock: no delivery timers run during the measurement.
 * Sends its base URL to the parent, its CPU time when asked (`cpu`), and stops when the parent
 * disconnects.
 */
import { createManualClock, createSandbox } from '@smsv4/sandbox';

const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

const sandbox = createSandbox({ clock: createManualClock(), maxMessages: 1_000_000, adminToken: false }); // the bench reads and resets it over HTTP
const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ type: 'ready', url: server.url });
// The CPU time this process used so far (µs), when asked.
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ type: 'cpu', cpu: cpuMicros() });
});
process.on('disconnect', () => {
  void server.close().then(() => sandbox.close());
});
