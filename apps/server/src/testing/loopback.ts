import type { IncomingMessage } from 'node:http';
import type { Server } from 'node:net';

/** Listens on 127.0.0.1 (port 0: any free one); rejects when the port cannot be had. */
export function listenOnLoopback(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A request's whole body as text (UTF-8), as the stand-ins on the loopback read what they are sent. */
export async function requestText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
