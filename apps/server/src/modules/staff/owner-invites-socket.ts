import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/*
 * `npm run admin -- invite-owner EMAIL` while the server has the embedded database open: the command
 * may not open the database itself (one process at a time), so it asks the server, which listens on
 * a Unix socket in its data directory, open to the user the server runs as only (whoever may write
 * the data directory could change the database anyway). One request line, one reply line, JSON.
 * Nothing of it is logged: the link is the new owner's secret, and goes to the command only.
 */
const SOCKET_FILE = 'admin.sock';
const MAX_REQUEST_BYTES = 1_024;
/** A socket's path: 107 bytes on Linux, 103 on macOS; a longer one Node cuts short without a word. */
const MAX_SOCKET_PATH_BYTES = 103;
const TIMEOUT_MS = 10_000;

const request = z.object({ email: z.email().max(320) });
const reply = z.union([z.object({ link: z.string() }), z.object({ error: z.string() })]);
type Reply = z.infer<typeof reply>;

const socketIn = (dataDir: string) => path.join(dataDir, SOCKET_FILE);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Answers owner invitations on the data directory's socket; returns the stop. */
export async function serveOwnerInvites(
  dataDir: string,
  invite: (email: string) => Promise<string>,
): Promise<() => Promise<void>> {
  const file = socketIn(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`${file} is longer than a socket's path may be (${MAX_SOCKET_PATH_BYTES} bytes)`);
  }
  // Left by a server that died: this process holds the data directory now.
  rmSync(file, { force: true });
  const answer = async (line: string): Promise<Reply> => {
    const parsed = request.safeParse(JSON.parse(line));
    if (!parsed.success) return { error: 'the request names no e-mail address' };
    return { link: await invite(parsed.data.email.trim()) };
  };
  const server = net.createServer((socket) => {
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const end = received.indexOf('\n');
      if (end < 0) {
        if (received.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.off('data', onData);
      void answer(received.slice(0, end))
        .catch((error: unknown): Reply => ({ error: messageOf(error) }))
        .then((result) => socket.end(`${JSON.stringify(result)}\n`));
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(file, 0o600);
  // Closing removes the socket file.
  return () => new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Asks the server holding the data directory for an owner's set-up link. Undefined when no server
 * answers there (the holder is another command, or a server without the socket); throws the
 * server's refusal (the address belongs to a member already).
 */
export async function askServerForOwnerLink(dataDir: string, email: string): Promise<string | undefined> {
  const line = await new Promise<string | undefined>((resolve, reject) => {
    const socket = net.connect(socketIn(dataDir));
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error('the server did not answer in time')));
    let received = '';
    socket.on('connect', () => socket.write(`${JSON.stringify({ email })}\n`));
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('end', () => resolve(received));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      ['ENOENT', 'ECONNREFUSED'].includes(error.code ?? '') ? resolve(undefined) : reject(error),
    );
  });
  if (line === undefined) return undefined;
  const result = reply.parse(JSON.parse(line));
  if ('error' in result) throw new Error(result.error);
  return result.link;
}
