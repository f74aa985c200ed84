import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { NODE_REFUSAL_KINDS } from '@skyway/shared/schemas/admin/nodes';
import { deviceSlots } from './device-slots.ts';
import { staff } from './staff.ts';

/**
 * The proxy servers the operator runs (PRODUCT.md section 6): where customers connect. A node serves
 * one or more inbounds; the subscription links list the enabled inbounds of the enabled nodes that
 * the customer's plan may use.
 */
export const nodes = pgTable(
  'nodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // A stable small integer naming the node to programs that take only an integer node id (V2bX,
    // XrayR: the UniProxy compatibility routes' `node_id`), shown in the back office.
    number: integer('number').generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    region: text('region').notNull(),
    // The address clients dial: a host name or an IP address.
    host: text('host').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    // The plans (periods) whose customers may use it; null: every plan.
    periods: jsonb('periods').$type<string[]>(),
    // The fewest connections a customer must have bought to use it (a premium node: more).
    minConnections: integer('min_connections').notNull().default(1),
    // The traffic a customer is charged per byte moved through it, in percent (a premium route: more).
    ratePercent: integer('rate_percent').notNull().default(100),
    // What the node's line carries each way, in Mbit/s: a report of more bytes than it could carry in
    // the report's window is refused (node-api/plausibility.ts).
    lineMbps: integer('line_mbps').notNull().default(10_000),
    // The end of the window of the node's latest report: where the next report's window starts.
    reportedUntil: timestamp('reported_until', { withTimezone: true }),
    // SHA-256 of the node's API token (shown once in the back office); null: none issued, or revoked.
    tokenHash: text('token_hash'),
    // Who may use it changed (enabled, plans, connections, inbounds): its agent pulls the full list.
    // From the slots' revision sequence, so that one number orders both.
    revision: bigint('revision', { mode: 'number' })
      .notNull()
      .default(sql`nextval('device_slot_revisions')`),
    // The agent's last call, and what its last status said (load, memory, versions).
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    status: jsonb('status').$type<NodeStatus>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('nodes_token_key').on(table.tokenHash),
    uniqueIndex('nodes_number_key').on(table.number),
  ],
);

/** What a node's agent last said of its machine and core. */
export interface NodeStatus {
  load: [number, number, number];
  memory: { total: number; used: number };
  agent_version: string;
  core: string;
  uptime: number;
}

/** A protocol a node serves on a port, with its transport and TLS settings. */
export const inbounds = pgTable(
  'inbounds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    // vless | vmess | trojan | shadowsocks (2022)
    protocol: text('protocol').notNull(),
    port: integer('port').notNull(),
    // tcp | ws | grpc
    transport: text('transport').notNull(),
    // The WebSocket path or the gRPC service name.
    path: text('path'),
    // none | tls | reality
    security: text('security').notNull(),
    serverName: text('server_name'),
    // VLESS flow (xtls-rprx-vision), REALITY's public key and short id, the Shadowsocks 2022 method.
    flow: text('flow'),
    realityPublicKey: text('reality_public_key'),
    realityShortId: text('reality_short_id'),
    method: text('method'),
    // Shadowsocks 2022's server key (its users' keys are the slots' secrets): made with the inbound.
    serverKey: text('server_key'),
    enabled: boolean('enabled').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('inbounds_node_idx').on(table.nodeId),
    index('inbounds_enabled_idx')
      .on(table.nodeId)
      .where(sql`${table.enabled}`),
  ],
);

export type NodeRow = typeof nodes.$inferSelect;
export type InboundRow = typeof inbounds.$inferSelect;

/**
 * Each traffic report a node's agent delivered, once (unique on the node and its sequence): a
 * repeated or concurrent delivery of one report changes nothing. Its totals, charged at the node's
 * rate, are what the daily reconciliation checks the ledger against.
 */
export const nodeReports = pgTable(
  'node_reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    windowFrom: timestamp('window_from', { withTimezone: true }).notNull(),
    windowTo: timestamp('window_to', { withTimezone: true }).notNull(),
    // The hour of the ledger the report's bytes went to.
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    ratePercent: integer('rate_percent').notNull(),
    credentials: integer('credentials').notNull(),
    upload: bigint('upload', { mode: 'number' }).notNull(),
    download: bigint('download', { mode: 'number' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('node_reports_node_sequence_key').on(table.nodeId, table.sequence),
    index('node_reports_hour_idx').on(table.hour),
  ],
);

/** The traffic ledger: bytes charged per slot per node per hour (raw bytes × the node's rate). */
export const trafficHourly = pgTable(
  'traffic_hourly',
  {
    slotId: uuid('slot_id')
      .notNull()
      .references(() => deviceSlots.id, { onDelete: 'cascade' }),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    upload: bigint('upload', { mode: 'number' }).notNull().default(0),
    download: bigint('download', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.slotId, table.nodeId, table.hour] }),
    index('traffic_hourly_node_hour_idx').on(table.nodeId, table.hour),
  ],
);

export type NodeReportRow = typeof nodeReports.$inferSelect;

/** What a node sent that was refused (nodes/refusals.ts). */
export type NodeRefusalKind = (typeof NODE_REFUSAL_KINDS)[number];

/**
 * What the nodes sent that was refused, for staff (the back office's Nodes screen): one row per node
 * and kind, counted, with the latest occurrence, so that a rogue node cannot flood the table.
 */
export const nodeRefusals = pgTable(
  'node_refusals',
  {
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NodeRefusalKind>().notNull(),
    // How many reports, pushes or sightings were refused, and when the first and the latest came.
    times: bigint('times', { mode: 'number' }).notNull(),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    // What the latest said: the slots refused in it, or the bytes it claimed and the line's allowance.
    last: jsonb('last').$type<Record<string, number>>().notNull(),
  },
  (table) => [primaryKey({ columns: [table.nodeId, table.kind] })],
);

export type NodeRefusalRow = typeof nodeRefusals.$inferSelect;

/**
 * The sequences of the traffic pushes of UniProxy node programs (V2bX, XrayR), which number none of
 * their own: each push is one report whose sequence is this sequence's next value, negated, so that it
 * never meets the positive sequences of the node's own agent (`modules/uniproxy`).
 */
export const uniproxyPushes = pgSequence('uniproxy_pushes');

/**
 * What the daily reconciliation found: an hour of a node whose reports and ledger disagree (bytes
 * lost or added since they were applied together). It waits in the attention queue until a member
 * of staff has looked at it.
 */
export const trafficDiscrepancies = pgTable(
  'traffic_discrepancies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    reportedUpload: bigint('reported_upload', { mode: 'number' }).notNull(),
    reportedDownload: bigint('reported_download', { mode: 'number' }).notNull(),
    ledgerUpload: bigint('ledger_upload', { mode: 'number' }).notNull(),
    ledgerDownload: bigint('ledger_download', { mode: 'number' }).notNull(),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    // The member of staff who looked at it, and what they found (kept in the audit row too).
    resolvedBy: uuid('resolved_by').references(() => staff.id, { onDelete: 'set null' }),
    resolution: text('resolution'),
  },
  (table) => [
    uniqueIndex('traffic_discrepancies_node_hour_key').on(table.nodeId, table.hour),
    index('traffic_discrepancies_open_idx')
      .on(table.foundAt)
      .where(sql`${table.resolvedAt} is null`),
  ],
);

export type TrafficDiscrepancyRow = typeof trafficDiscrepancies.$inferSelect;
