// Serves the Next.js route module on Node as Next's router does for app/sms/callbacks/route.ts:
// POST goes to the module's POST export, any other method is answered 405 by the router.
import { serve } from '@hono/node-server';
import { POST } from '../recipes/next-route.js';

serve(
  {
    hostname: '127.0.0.1',
    port: Number(process.env.PORT),
    fetch: (request) => (request.method === 'POST' ? POST(request) : new Response(null, { status: 405, headers: { allow: 'POST' } })),
  },
  ({ port }) => console.log(`listening on http://127.0.0.1:${port}/sms/callbacks`),
);
