import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook/callback receiver on 127.0.0.1 for tests. `answer` decides each response (status, or
 * 'hang' to never answer); every received request is kept in `calls`.
 */
export async function startReceiver(answer: (call: ReceivedCall, index: number) => number | 'hang' = () => 200) {
  const calls: ReceivedCall[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const call = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      calls.push(call);
      const status = answer(call, calls.length - 1);
      if (status === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    calls,
    /** Waits until `n` calls arrived, or fails after `ms`. */
    async waitFor(n: number, ms = 5000): Promise<ReceivedCall[]> {
      const deadline = Date.now() + ms;
      while (calls.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${calls.length} calls, expected ${n} within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return calls;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
