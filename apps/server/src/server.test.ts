import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from './testing/server-process.ts';
import { createServerDatabase, migratedDataDir, testDatabaseKind } from './testing/test-database.ts';

const serverFile = path.resolve(import.meta.dirname, 'server.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Environment for a real server process on this suite's kind of database. */
async function databaseEnv(): Promise<Record<string, string>> {
  if (testDatabaseKind === 'postgres') {
    const created = await createServerDatabase();
    cleanups.push(created.drop);
    return { DATABASE_URL: created.url };
  }
  const { dir, remove } = await migratedDataDir('skyway-data-');
  cleanups.push(remove);
  return { DATA_DIR: dir };
}

function readReply(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
  });
}

// Each test starts a real process through tsx: on two busy cores its start alone took up to 20 s.
describe('the server process', { timeout: 60_000 }, () => {
  it('refuses to start on bad configuration and lists every bad key', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', serverFile], {
      env: { PATH: process.env.PATH, PORT: 'abc', SUPPORT_EMAIL: 'not-an-address' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('SUPPORT_EMAIL');
  });

  it('finishes a request in flight on SIGTERM, then closes the database and exits 0', async () => {
    const server = await startServerProcess(await databaseEnv(), cleanups);
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const reply = readReply(socket);
    // Headers now, body later: the request is in flight when the signal arrives.
    socket.write(
      'POST /web/site/conf HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 2\r\nConnection: close\r\n\r\n',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write('{}');

    const text = await reply;
    expect(text).toMatch(/^HTTP\/1.1 200/);
    expect(text).toContain('"code":200');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('database closed');
  });

  /** A client that sends the headers and half its body, then goes silent. */
  async function stalledUpload(port: number) {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.on('error', () => undefined);
    const reply = readReply(socket);
    socket.write(
      'POST /web/site/conf HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 20\r\n\r\n{"l":',
    );
    return { reply, openedAt: Date.now() };
  }

  it('cuts a client whose request has not arrived within REQUEST_TIMEOUT_MS, and serves others meanwhile', async () => {
    const server = await startServerProcess(
      { ...(await databaseEnv()), REQUEST_TIMEOUT_MS: '1000' },
      cleanups,
    );
    const stalled = await stalledUpload(server.port);
    const other = await fetch(`http://127.0.0.1:${server.port}/web/site/conf`, { method: 'POST' });
    expect(other.status).toBe(200);
    const text = await stalled.reply;
    const waited = Date.now() - stalled.openedAt;
    expect(text).toMatch(/^HTTP\/1.1 408/);
    expect(text).toContain('x-content-type-options: nosniff');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 408,
      data: { reason: 'request_timeout' },
    });
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(4000);
  });

  it('does not let a stalled client hold up SIGTERM: it exits 0 long before the shutdown deadline', async () => {
    const server = await startServerProcess(
      { ...(await databaseEnv()), SHUTDOWN_TIMEOUT_MS: '20000' },
      cleanups,
    );
    const stalled = await stalledUpload(server.port);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(5000);
    await stalled.reply;
  });
});
