// Runs the Next.js route module in Vercel's Edge Runtime as an edge function.
import { POST } from '../recipes/next-route.js';

interface FetchEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}

(globalThis as unknown as { addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void }).addEventListener('fetch', (event) => {
  event.respondWith(event.request.method === 'POST' ? POST(event.request) : new Response(null, { status: 405, headers: { allow: 'POST' } }));
});
