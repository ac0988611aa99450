/**
 * Posts callbacks with Node's own HTTP client, with a keep-alive agent per scheme: what a sandbox
 * running on Node uses unless it is given a `fetch`. It posts what `fetch` posts (method, headers,
 * body; no redirect followed; the first characters of the answer kept), at a fraction of the cost
 * per request, so that receipts keep up with thousands of sends per second.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { RESPONSE_KEPT, type CallbackAnswer, type CallbackPost } from './callbacks.js';

/** A {@link CallbackPost} over Node's HTTP client, and the way to close its idle connections. */
export interface NodeCallbackPost {
  readonly post: CallbackPost;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** The first characters of an answer's body; the rest is not read (the connection is then closed). */
function answerOf(response: IncomingMessage): Promise<CallbackAnswer> {
  const status = response.statusCode ?? 0;
  return new Promise((resolve, reject) => {
    let text = '';
    let settled = false;
    const settle = (answer: CallbackAnswer | Error): void => {
      if (settled) return;
      settled = true;
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    };
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      text += chunk;
      if (text.length < RESPONSE_KEPT) return;
      settle({ status, body: text.slice(0, RESPONSE_KEPT) });
      response.destroy();
    });
    response.on('end', () => settle({ status, body: text }));
    // A body that breaks off is shown as far as it came.
    response.on('error', () => settle({ status, body: text }));
    response.on('aborted', () => settle({ status, body: text }));
  });
}

/** Creates a {@link NodeCallbackPost}. */
export function createNodeCallbackPost(): NodeCallbackPost {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const post: CallbackPost = (url, { headers, body, signal }) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      // The dispatcher moves credentials into `Authorization`; a URL with them is never sent as it is.
      if (url.username !== '' || url.password !== '') {
        reject(new TypeError('a callback URL with credentials is posted with Authorization: Basic, not as it is'));
        return;
      }
      const octets = Buffer.from(body, 'utf8');
      const secure = url.protocol === 'https:';
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        { method: 'POST', agent: secure ? agents.https : agents.http, headers: { ...headers, 'content-length': String(octets.length) } },
        (response) => {
          signal.removeEventListener('abort', onAbort);
          answerOf(response).then(resolve, reject);
        },
      );
      const onAbort = (): void => {
        request.destroy(signal.reason instanceof Error ? signal.reason : undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      request.on('error', (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? signal.reason : error);
      });
      request.end(octets);
    });
  return {
    post,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
