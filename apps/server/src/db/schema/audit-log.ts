import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { staff } from './staff.ts';

/**
 * Every change made by staff, one row each, written in the transaction of the change. Append-only:
 * the database refuses UPDATE, DELETE and TRUNCATE on it (migration 0009).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    // Null for the break-glass command line; the e-mail and role are kept as they were then.
    staffId: uuid('staff_id').references(() => staff.id),
    staffEmail: text('staff_email').notNull(),
    role: text('role').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
  },
  (table) => [
    index('audit_log_at_idx').on(table.at.desc(), table.id.desc()),
    index('audit_log_staff_idx').on(table.staffId, table.at.desc(), table.id.desc()),
    index('audit_log_target_idx').on(table.targetType, table.targetId, table.at.desc(), table.id.desc()),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
