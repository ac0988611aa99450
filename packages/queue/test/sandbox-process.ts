/**
 * The sandbox in a process of its own (for the rate-limit tests): the times it stamps on the
 * messages it takes are not delayed by the test's own work. Sends its base URL to the parent and
 * stops when the parent disconnects.
 */
import { createSandbox } from '@smsv4/sandbox';

const sandbox = createSandbox({ maxMessages: 50_000, adminToken: false }); // the tests read its record over HTTP
const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ url: server.url });
process.on('disconnect', () => {
  void server.close().then(() => sandbox.close());
});
