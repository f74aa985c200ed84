import type { z } from 'zod';
import type { nodeCredentialSchema, nodeInboundSchema } from '@skyway/shared/schemas/node-api';
import type { CoreName } from '../config.ts';

export type NodeInbound = z.infer<typeof nodeInboundSchema>;
export type NodeCredential = z.infer<typeof nodeCredentialSchema>;

/** One user as the core knows it: `email` names it in the core and its traffic counters. */
export type CoreUser = Pick<NodeCredential, 'email' | 'uuid' | 'password'>;

export interface UserTraffic {
  upload: number;
  download: number;
}

/** An inbound of the panel's config that this core does not serve, and why. */
export interface SkippedInbound {
  tag: string;
  reason: string;
}

/** The core's JSON configuration and which of the panel's inbounds it serves. */
export interface RenderedCore {
  config: CoreConfig;
  served: NodeInbound[];
  skipped: SkippedInbound[];
}

export type CoreConfig = Record<string, unknown>;

/**
 * Source addresses each user (by email) is refused from: the panel lets one device use a slot at a
 * time, and another device holds this one.
 */
export type Refusals = ReadonlyMap<string, readonly string[]>;

/** What the agent's own configuration gives every core. */
export interface CoreSettings {
  bin: string;
  /** Where the core's config file and pid file go. */
  stateDir: string;
  /** The gRPC API's port on 127.0.0.1. */
  apiPort: number;
  /** The address the proxy inbounds listen on. */
  listen: string;
  tls?: { certificateFile: string; keyFile: string } | undefined;
  reality?: { privateKey: string; dest?: string | undefined } | undefined;
  allowPrivateDestinations: boolean;
}

/**
 * A proxy core run by the agent: its configuration rendered from the panel's inbounds, its process,
 * and its gRPC API (users in, traffic out). The agent holds no core-specific knowledge beyond this.
 */
export interface CoreDriver {
  readonly name: CoreName;
  /** The core's JSON configuration for these inbounds, holding these users and refusals from the start. */
  render(inbounds: readonly NodeInbound[], users: readonly CoreUser[], refusals?: Refusals): RenderedCore;
  /** Starts the core (stopping a running one first); resolves once its API and inbounds listen. */
  start(
    inbounds: readonly NodeInbound[],
    users: readonly CoreUser[],
    refusals?: Refusals,
  ): Promise<RenderedCore>;
  stop(): Promise<void>;
  readonly running: boolean;
  /** Called when the core exits without being asked to (a crash). */
  onUnexpectedExit(listener: (detail: { code: number | null; signal: string | null }) => void): void;
  /** Adds the user on every served inbound (AlterInbound AddUserOperation). */
  addUser(user: CoreUser): Promise<void>;
  /** Removes the user by email from every served inbound; a user that is not there is no error. */
  removeUser(email: string): Promise<void>;
  /** Bytes per email since the last read; the counters are reset by the read. */
  readTraffic(): Promise<Map<string, UserTraffic>>;
  /** The source addresses each email is connected from now, where the core can tell. */
  readAddresses(): Promise<Map<string, string[]>>;
  /**
   * Whether `setRefusals` changes the running core (Xray's RoutingService); a core without it
   * (V2Ray 4) takes new refusals only through `start`.
   */
  readonly liveRefusals: boolean;
  /** Makes the running core refuse exactly these addresses (users not named are refused none). */
  setRefusals(refusals: Refusals): Promise<void>;
  /** The core's name and version, e.g. "v2ray 4.34.0". */
  version(): Promise<string>;
}
