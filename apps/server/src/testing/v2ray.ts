import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Debian's v2ray (4.34): a real proxy core for the delivery tests, run on 127.0.0.1. */
export const V2RAY = process.env.V2RAY_PATH ?? '/usr/bin/v2ray';

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function listening(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`v2ray did not listen on ${port}`);
}

export interface RunningCore {
  stop(): Promise<void>;
}

/** Starts v2ray with a configuration, once it listens on `port`. */
export async function startV2ray(config: object, port: number): Promise<RunningCore> {
  const dir = mkdtempSync(path.join(tmpdir(), 'skyway-v2ray-'));
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const child: ChildProcess = spawn(V2RAY, ['-config', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  try {
    await listening(port, Date.now() + 10_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}: ${errors}`, { cause: error });
  }
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** A self-signed certificate for `name` (the TLS inbounds), as PEM files in a folder of their own. */
export function selfSignedCertificate(name: string): {
  certificateFile: string;
  keyFile: string;
  remove(): void;
} {
  const dir = mkdtempSync(path.join(tmpdir(), 'skyway-cert-'));
  const certificateFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=DNS:${name}`,
      '-keyout',
      keyFile,
      '-out',
      certificateFile,
    ],
    { stdio: 'ignore' },
  );
  return { certificateFile, keyFile, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
