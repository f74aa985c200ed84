import { and, count, eq, type SQL } from 'drizzle-orm';
import type { StaffRole } from '@skyway/shared/staff';
import type { SortOrder } from '@skyway/shared/schemas/admin/common';
import type { Database } from '../../db/client.ts';
import { inOrder } from '../../db/lists.ts';
import { auditLog, type AuditRow } from '../../db/schema/index.ts';

/** Who made a change: a signed-in member from an address, or the break-glass command line. */
export interface Actor {
  staffId: string | null;
  email: string;
  role: StaffRole | 'command_line';
  ip: string | null;
}

/** The break-glass command line as the author of a change. */
export const COMMAND_LINE: Actor = { staffId: null, email: 'command line', role: 'command_line', ip: null };

/** A signed-in member as the author of a change. */
export type StaffActor = Actor & { staffId: string; role: StaffRole };

export interface AuditedChange {
  /** `<area>.<verb>`, such as `staff.invite`. */
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
}

/** Writes the audit row of a change; call it with the transaction that makes the change. */
export async function recordAudit(tx: Database, actor: Actor, change: AuditedChange, now: Date) {
  await tx.insert(auditLog).values({
    at: now,
    staffId: actor.staffId,
    staffEmail: actor.email,
    role: actor.role,
    ip: actor.ip,
    action: change.action,
    targetType: change.targetType,
    targetId: change.targetId,
    before: change.before ?? null,
    after: change.after ?? null,
  });
}

export interface AuditFilter {
  staffId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  order?: SortOrder;
}

/** A page of the log, newest (or oldest) first. A member or a target has an index of its own; other filters walk the time index. */
export async function listAudit(
  db: Database,
  filter: AuditFilter,
  page: number,
  size: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.staffId) conditions.push(eq(auditLog.staffId, filter.staffId));
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) conditions.push(eq(auditLog.targetId, filter.targetId));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(...inOrder(filter.order ?? 'desc', auditLog.at, auditLog.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
