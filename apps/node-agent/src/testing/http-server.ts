import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A local HTTP server for the client's transport tests; `close` ends open streams too. */
export async function startHttpServer(handler: (request: IncomingMessage, reply: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Replies with the site's envelope. */
export function sendEnvelope(
  reply: ServerResponse,
  status: number,
  data: unknown,
  headers: Record<string, string> = {},
): void {
  reply.writeHead(status, { 'content-type': 'application/json', ...headers });
  reply.end(JSON.stringify({ code: status, msg: status === 200 ? 'ok' : `failed ${status}`, data }));
}
