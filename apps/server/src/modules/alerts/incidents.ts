import { and, eq, gte, isNull, notInArray, or, sql } from 'drizzle-orm';
import type { StaffAlertKind } from '@skyway/shared/schemas/admin/alerts';
import type { Database } from '../../db/client.ts';
import { alertIncidents, type AlertIncidentRow } from '../../db/schema/index.ts';

/** Opens an incident unless one of this kind and subject is open: true when this call opened it. */
export async function openIncident(
  db: Database,
  kind: StaffAlertKind,
  subject: string,
  label: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(alertIncidents)
    .values({ kind, subject, label, openedAt: now })
    .onConflictDoNothing({
      target: [alertIncidents.kind, alertIncidents.subject],
      where: sql`${alertIncidents.closedAt} is null`,
    })
    .returning({ id: alertIncidents.id });
  return rows.length > 0;
}

/** Closes the open incidents of a kind whose subject is not among `still` (those that ended). */
export async function closeEndedIncidents(db: Database, kind: StaffAlertKind, still: string[], now: Date) {
  return db
    .update(alertIncidents)
    .set({ closedAt: now })
    .where(
      and(
        eq(alertIncidents.kind, kind),
        isNull(alertIncidents.closedAt),
        ...(still.length > 0 ? [notInArray(alertIncidents.subject, still)] : []),
      ),
    )
    .returning({ subject: alertIncidents.subject, label: alertIncidents.label });
}

/** What a day's digest tells: the incidents opened or closed since `since`, and those still open. */
export async function incidentsSince(db: Database, since: Date): Promise<AlertIncidentRow[]> {
  return db
    .select()
    .from(alertIncidents)
    .where(
      or(
        isNull(alertIncidents.closedAt),
        gte(alertIncidents.openedAt, since),
        gte(alertIncidents.closedAt, since),
      ),
    )
    .orderBy(alertIncidents.openedAt);
}
