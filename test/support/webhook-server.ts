import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterEach } from 'vitest';
import type { AddressInfo } from 'node:net';

/** One request a test webhook received. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) standing in for a `notify_webhook`:
 * it records each request and answers with `status`, or never answers (`hang`).
 */
export async function webhookServer(answer: { status: number } | 'hang' = { status: 204 }) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (answer !== 'hang') res.writeHead(answer.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Registers an afterEach that closes every server the suite started, and returns the
 * function that starts one: `const server = webhookServers();` then `await server()`.
 */
export function webhookServers(): (answer?: Parameters<typeof webhookServer>[0]) => ReturnType<typeof webhookServer> {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  return async (answer) => {
    const started = await webhookServer(answer);
    closers.push(started.close);
    return started;
  };
}
