import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import {
  STAFF_ALERT_KINDS,
  type StaffAlertChannel,
  type StaffAlertDelivery,
  type StaffAlertKind,
  type StaffAlertPreferencesRequest,
} from '@skyway/shared/schemas/admin/alerts';
import type { StaffRole } from '@skyway/shared/staff';
import type { Database } from '../../db/client.ts';
import { staff, staffAlertPreferences } from '../../db/schema/index.ts';
import { staffChats } from '../telegram/repository.ts';

export interface AlertPreferences {
  channel: StaffAlertChannel;
  kinds: StaffAlertKind[];
  delivery: StaffAlertDelivery;
}

/** Until a member chooses: owners and admins get every kind by mail at once, other roles nothing. */
export const defaultPreferences = (role: StaffRole): AlertPreferences => ({
  channel: 'mail',
  kinds: role === 'owner' || role === 'admin' ? [...STAFF_ALERT_KINDS] : [],
  delivery: 'at_once',
});

const knownKinds = (kinds: string[]) => STAFF_ALERT_KINDS.filter((kind) => kinds.includes(kind));

type PreferencesRow = typeof staffAlertPreferences.$inferSelect;

const preferencesOf = (role: StaffRole, row: PreferencesRow | null): AlertPreferences =>
  row
    ? { channel: row.channel, kinds: knownKinds(row.kinds), delivery: row.delivery }
    : defaultPreferences(role);

export async function findPreferences(
  db: Database,
  staffId: string,
  role: StaffRole,
): Promise<AlertPreferences> {
  const [row] = await db
    .select()
    .from(staffAlertPreferences)
    .where(eq(staffAlertPreferences.staffId, staffId));
  return preferencesOf(role, row ?? null);
}

/**
 * Saves a member's choice. The digest counts from now, so a member who chooses it gets the next
 * day's, not one at once.
 */
export async function savePreferences(
  db: Database,
  staffId: string,
  choice: StaffAlertPreferencesRequest,
  now: Date,
): Promise<void> {
  const values = { ...choice, lastDigestAt: now, updatedAt: now };
  await db
    .insert(staffAlertPreferences)
    .values({ staffId, ...values })
    .onConflictDoUpdate({ target: staffAlertPreferences.staffId, set: values });
}

/** A member as alerts reach them: where (mail, or their chat while bound) and in which language. */
export interface AlertMember {
  id: string;
  email: string;
  language: string;
  preferences: AlertPreferences;
  /** The member's Telegram chat when they chose Telegram and are bound; else alerts go by mail. */
  chatId: number | undefined;
}

async function withChats(
  db: Database,
  members: { id: string; email: string; language: string; preferences: AlertPreferences }[],
): Promise<AlertMember[]> {
  const chats = await staffChats(
    db,
    members.filter((member) => member.preferences.channel === 'telegram').map((member) => member.id),
  );
  return members.map((member) => ({ ...member, chatId: chats.get(member.id) }));
}

/** Every member not disabled who gets some kind at once. */
export async function membersAlertedAtOnce(db: Database): Promise<AlertMember[]> {
  const rows = await db
    .select({
      member: { id: staff.id, email: staff.email, language: staff.language, role: staff.role },
      row: staffAlertPreferences,
    })
    .from(staff)
    .leftJoin(staffAlertPreferences, eq(staffAlertPreferences.staffId, staff.id))
    .where(isNull(staff.disabledAt));
  return withChats(
    db,
    rows
      .map(({ member, row }) => ({ ...member, preferences: preferencesOf(member.role, row) }))
      .filter((member) => member.preferences.delivery === 'at_once' && member.preferences.kinds.length > 0),
  );
}

/**
 * Claims today's digest of every member who chose it and has not had it since `due`: one
 * conditional update, so with several instances running the job each member is claimed once.
 * Call it in the transaction that queues the digests.
 */
export async function claimDigests(tx: Database, due: Date, now: Date): Promise<AlertMember[]> {
  const claimed = await tx
    .update(staffAlertPreferences)
    .set({ lastDigestAt: now })
    .where(
      and(
        eq(staffAlertPreferences.delivery, 'digest'),
        or(isNull(staffAlertPreferences.lastDigestAt), lt(staffAlertPreferences.lastDigestAt, due)),
        sql`${staffAlertPreferences.staffId} in (select ${staff.id} from ${staff} where ${staff.disabledAt} is null)`,
      ),
    )
    .returning();
  if (claimed.length === 0) return [];
  const members = await tx
    .select({ id: staff.id, email: staff.email, language: staff.language, role: staff.role })
    .from(staff)
    .where(
      inArray(
        staff.id,
        claimed.map((row) => row.staffId),
      ),
    );
  const rowOf = new Map(claimed.map((row) => [row.staffId, row]));
  return withChats(
    tx,
    members.map((member) => ({
      ...member,
      preferences: preferencesOf(member.role, rowOf.get(member.id) ?? null),
    })),
  );
}
