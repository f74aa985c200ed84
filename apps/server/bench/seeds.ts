// What the benches seed: customers with live access, and the inbounds of their nodes.
import { randomBytes } from 'node:crypto';
import { SS_KEY_BYTES } from '@skyway/shared/nodes';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import type { inbounds } from '../src/db/schema/index.ts';

/**
 * `count` customers with live access (1 to 300 days left, 1 to 3 connections), in one statement;
 * customer n's id is `md5(salt || n)::uuid`, so the bench's other rows can name them.
 */
export async function seedCustomers(db: Database, options: { count: number; salt: string; label: string }) {
  const { count, salt, label } = options;
  const letter = label.slice(0, 1).toUpperCase();
  await db.execute(sql`
    insert into users (id, email, invite_code, language, expire_at, connections, created_at, last_login_at)
    select md5(${salt} || n)::uuid, ${label} || '-' || n || '@example.com', ${letter} || lpad(to_hex(n), 7, '0'),
      (array['zh', 'en', 'tw'])[1 + n % 3], now() + interval '1 day' + (n % 300) * interval '1 day',
      1 + n % 3, now() - n * interval '1 minute', now() - n * interval '10 seconds'
    from generate_series(1, ${count}) n`);
}

/** An inbound as the benches seed it, for a node they add it to. */
export type InboundSeed = Omit<typeof inbounds.$inferInsert, 'nodeId'>;

const x25519Key = () => randomBytes(32).toString('base64url');

/** VLESS with REALITY and the Vision flow over TCP. */
export const reality = (port: number): InboundSeed => ({
  protocol: 'vless',
  port,
  transport: 'tcp',
  security: 'reality',
  serverName: 'www.microsoft.com',
  flow: 'xtls-rprx-vision',
  realityPublicKey: x25519Key(),
  realityShortId: randomBytes(4).toString('hex'),
});

/** A protocol over TLS on a transport (a WebSocket path or gRPC service name where it needs one). */
export const tlsInbound = (
  protocol: 'vless' | 'vmess' | 'trojan',
  port: number,
  transport: 'tcp' | 'ws' | 'grpc',
  host: string,
): InboundSeed => ({
  protocol,
  port,
  transport,
  path: transport === 'ws' ? '/ray' : transport === 'grpc' ? 'grpc-service' : null,
  security: 'tls',
  serverName: host,
});

/** Shadowsocks 2022 with a server key of the method's length. */
export const shadowsocks = (port: number, method: keyof typeof SS_KEY_BYTES): InboundSeed => ({
  protocol: 'shadowsocks',
  port,
  transport: 'tcp',
  security: 'none',
  method,
  serverKey: randomBytes(SS_KEY_BYTES[method]).toString('base64'),
});
