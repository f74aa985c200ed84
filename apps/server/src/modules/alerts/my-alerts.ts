import type { MyAlerts, StaffAlertPreferencesRequest } from '@skyway/shared/schemas/admin/alerts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { recordAudit, type StaffActor } from '../audit/repository.ts';
import { findStaffLink, unbindStaffChat } from '../telegram/repository.ts';
import { staffBindingOf } from '../telegram/service.ts';
import { findPreferences, savePreferences } from './preferences.ts';

/** "My alerts" of the signed-in member: their choice (or their role's defaults) and their binding. */
export async function myAlerts(db: Database, actor: StaffActor): Promise<MyAlerts> {
  const [preferences, telegram] = await Promise.all([
    findPreferences(db, actor.staffId, actor.role),
    staffBindingOf(db, actor.staffId),
  ]);
  return { ...preferences, telegram };
}

/** A member sets their own choice; Telegram only while their chat is bound. Audited. */
export async function setMyPreferences(
  db: Database,
  actor: StaffActor,
  choice: StaffAlertPreferencesRequest,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (choice.channel === 'telegram' && !(await findStaffLink(tx, actor.staffId)))
      throw new AppError(409, 'telegram_not_bound');
    const before = await findPreferences(tx, actor.staffId, actor.role);
    await savePreferences(tx, actor.staffId, choice, now);
    await recordAudit(
      tx,
      actor,
      {
        action: 'alerts.preferences_set',
        targetType: 'staff',
        targetId: actor.staffId,
        before,
        after: choice,
      },
      now,
    );
  });
}

/** A member unbinds their alerts' chat from the back office (alerts fall back to mail). Audited. */
export async function unbindMyTelegram(db: Database, actor: StaffActor, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await unbindStaffChat(tx, actor.staffId))) return;
    await recordAudit(
      tx,
      actor,
      {
        action: 'alerts.telegram_unbind',
        targetType: 'staff',
        targetId: actor.staffId,
        before: { bound: true },
        after: { bound: false },
      },
      now,
    );
  });
}
