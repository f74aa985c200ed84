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
  /** Whether the core keeps per-user online address lists (Xray's StatsService online maps). */
  readonly onlineStats: boolean;
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
