import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * The requests an instance is answering. At shutdown, those whose body is still arriving are the
 * slow or stalled clients: they are cut, so that they do not hold the shutdown up to its deadline
 * while every complete request is still answered.
 */
export function trackRequestsInFlight(app: FastifyInstance): { cutUnfinishedUploads(): number } {
  const requests = new Set<IncomingMessage>();
  app.addHook('onRequest', async (request) => {
    requests.add(request.raw);
    // On the request, not its socket: a keep-alive socket would gather one listener per request.
    request.raw.once('close', () => requests.delete(request.raw));
  });
  app.addHook('onResponse', async (request) => {
    requests.delete(request.raw);
  });
  return {
    cutUnfinishedUploads() {
      let cut = 0;
      for (const raw of requests) {
        if (raw.complete) continue;
        raw.socket.destroy();
        cut += 1;
      }
      if (cut > 0) app.log.warn({ cut }, 'shutdown: cut clients still sending their request');
      return cut;
    },
  };
}
