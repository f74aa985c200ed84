import { readCache } from '../../db/read-cache.ts';
import { enabledEndpoints } from './repository.ts';

/** One place a slot connects to: an inbound of a node, with the name the apps show for it. */
export interface Endpoint {
  name: string;
  host: string;
  protocol: 'vless' | 'vmess' | 'trojan' | 'shadowsocks';
  port: number;
  transport: 'tcp' | 'ws' | 'grpc';
  path: string | null;
  security: 'none' | 'tls' | 'reality';
  serverName: string | null;
  flow: string | null;
  realityPublicKey: string | null;
  realityShortId: string | null;
  method: string | null;
  serverKey: string | null;
}

/**
 * How long an instance serves the enabled nodes and inbounds it read before reading them again. The
 * back office's changes drop them at once on the instance that made them (`forgetEnabledEndpoints`);
 * the other instances serve the change within this time.
 */
export const ENDPOINTS_TTL_MS = 5_000;

/**
 * Every enabled inbound of every enabled node (`enabledEndpoints`), read at most once every
 * ENDPOINTS_TTL_MS: every subscription fetch needs them, and they change when staff change them.
 */
const endpoints = readCache(ENDPOINTS_TTL_MS, enabledEndpoints);

export const cachedEnabledEndpoints = endpoints.get;
/** After the back office has changed a node or an inbound (once the change has committed). */
export const forgetEnabledEndpoints = endpoints.forget;
