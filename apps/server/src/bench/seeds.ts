import { randomBytes } from 'node:crypto';
import { SS_KEY_BYTES } from '@skyway/shared/nodes';
import type { inbounds } from '../db/schema/index.ts';

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
