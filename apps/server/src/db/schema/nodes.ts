import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The proxy servers the operator runs (PRODUCT.md section 6): where customers connect. A node serves
 * one or more inbounds; the subscription links list the enabled inbounds of the enabled nodes that
 * the customer's plan may use.
 */
export const nodes = pgTable('nodes', {
  id: uuid('id').primaryKey().defaultRandom(),
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
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

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
