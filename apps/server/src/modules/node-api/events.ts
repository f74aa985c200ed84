import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { NODE_EVENT_CHANGED } from '@skyway/shared/schemas/node-api';
import type { Database } from '../../db/client.ts';
import { highestRevision } from '../nodes/repository.ts';

/** How often an instance looks for new revisions while nodes listen: revocation reaches them within it. */
const WATCH_EVERY_MS = 1_000;
/** A comment line this often keeps proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;

interface Listener {
  nodeId: string;
  stream: ServerResponse;
}

export interface NodeEvents {
  /** Streams `changed` events to a node's agent until it goes away. */
  listen(nodeId: string, stream: ServerResponse): Promise<void>;
  /** Ends every stream (the instance is closing). */
  close(): void;
}

/**
 * The change stream of the nodes connected to this instance. While any listens, the instance reads
 * the highest revision every second (one query, whatever the number of nodes, and on whichever
 * instance the change was made, since it reads the database): when it has grown, every connected
 * node is told to pull.
 */
export function createNodeEvents(db: Database, log: FastifyBaseLogger): NodeEvents {
  const listeners = new Set<Listener>();
  let known: number | null = null;
  let watching: NodeJS.Timeout | null = null;
  let keepingAlive: NodeJS.Timeout | null = null;

  const send = (listener: Listener, text: string) => {
    if (!listener.stream.writableEnded) listener.stream.write(text);
  };

  async function look(): Promise<void> {
    const revision = await highestRevision(db);
    if (known !== null && revision > known) {
      for (const listener of listeners) {
        send(listener, `event: ${NODE_EVENT_CHANGED}\ndata: ${JSON.stringify({ revision })}\n\n`);
      }
    }
    known = revision;
  }

  function start(): void {
    if (watching) return;
    watching = setInterval(() => {
      look().catch((error: unknown) =>
        log.warn({ err: error }, 'node events: the revision could not be read'),
      );
    }, WATCH_EVERY_MS);
    keepingAlive = setInterval(() => {
      for (const listener of listeners) send(listener, ': keep-alive\n\n');
    }, KEEP_ALIVE_MS);
  }

  function stop(): void {
    if (watching) clearInterval(watching);
    if (keepingAlive) clearInterval(keepingAlive);
    watching = keepingAlive = null;
    known = null;
  }

  return {
    async listen(nodeId, stream) {
      // What counts as new from here: the pull this stream asks for at once gets everything up to it.
      known ??= await highestRevision(db);
      const listener = { nodeId, stream };
      listeners.add(listener);
      start();
      // Pull once now: whatever changed while the node was away.
      send(listener, `event: ${NODE_EVENT_CHANGED}\ndata: {}\n\n`);
      stream.on('close', () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      });
    },
    close() {
      for (const listener of listeners) listener.stream.end();
      listeners.clear();
      stop();
    },
  };
}
