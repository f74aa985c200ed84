import type { CoreName } from '../config.ts';
import type { CoreConfig, CoreSettings, CoreUser, NodeInbound } from './driver.ts';

/** A protobuf message for the core's API: its full type name and its fields (proto field names). */
export interface TypedFields {
  type: string;
  fields: Record<string, unknown>;
}

/**
 * What differs between cores that speak the V2Ray configuration and API: which inbounds they can
 * serve, how an inbound and a user's account are written, the protobuf package and the command line.
 */
export interface CoreDialect {
  readonly name: CoreName;
  /** The folder under `protos/` and the protobuf package prefix of the core's API. */
  readonly protos: { folder: string; package: string };
  /**
   * Where the users' live source addresses come from: the core's per-user online lists (Xray's
   * StatsService online maps), or its access log (V2Ray 4 has no such lists).
   */
  readonly addresses: 'online-stats' | 'access-log';
  /** Whether the core takes routing rules while it runs (Xray's RoutingService AddRule / RemoveRule). */
  readonly liveRefusals: boolean;
  /** The policy of level 0, on which every user sits. */
  readonly userPolicy: Record<string, boolean>;
  /** Why this core cannot serve the inbound with these settings; undefined when it can. */
  unsupported(inbound: NodeInbound, settings: CoreSettings): string | undefined;
  /** The inbound's `protocol`, `settings` and `streamSettings`, holding these users. */
  inbound(inbound: NodeInbound, users: readonly CoreUser[], settings: CoreSettings): CoreConfig;
  /** The user's account message on this inbound, for AddUserOperation. */
  account(inbound: NodeInbound, user: CoreUser): TypedFields;
  runArgs(configFile: string): string[];
  readonly versionArgs: string[];
}
