import { boolean, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Language } from '@skyway/shared/languages';
import { GATEWAY_KINDS, type GatewayMethod } from '@skyway/shared/schemas/admin/gateways';

export const gatewayKind = pgEnum('gateway_kind', GATEWAY_KINDS);

/**
 * The payment gateways the back office configured (PRODUCT.md section 8), several at once. `settings`
 * holds what is not secret (an Epay site and merchant id); `sealedKeys` the kind's keys, encrypted
 * with SECRETS_KEY (modules/gateways/secrets.ts) and never shown again.
 */
export const gateways = pgTable('gateways', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: gatewayKind('kind').notNull(),
  names: jsonb('names').$type<Record<Language, string>>().notNull(),
  methods: jsonb('methods').$type<GatewayMethod[]>().notNull(),
  position: integer('position').notNull().default(0),
  // Basis points of the order's amount added for the buyer; null: no fee.
  feeBps: integer('fee_bps'),
  enabled: boolean('enabled').notNull().default(true),
  settings: jsonb('settings').$type<Record<string, string>>().notNull(),
  sealedKeys: text('sealed_keys').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type GatewayRow = typeof gateways.$inferSelect;
