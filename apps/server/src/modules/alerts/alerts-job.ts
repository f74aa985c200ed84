import { ATTENTION_MAIL_DAYS } from '@skyway/shared/schemas/admin/sales';
import type { StaffAlertKind } from '@skyway/shared/schemas/admin/alerts';
import type { Database } from '../../db/client.ts';
import { gatewayNamesOf } from '../gateways/repository.ts';
import { mailBacklog } from '../mail/repository.ts';
import { silentNodes } from '../nodes/repository.ts';
import { jobsFailingTwice } from '../operations/job-runs-repository.ts';
import { attentionCounts } from '../sales/repository.ts';
import { forgedNotifiesSince } from '../sales/notices.ts';
import { telegramBacklog } from '../telegram/repository.ts';
import { ALERT_TEXTS, BACK_OFFICE_PATH, fillAlertText } from './alert-texts.ts';
import { type AlertMailer, languageOf, queueForMembers } from './delivery.ts';
import { sendDueDigests } from './digest.ts';
import { closeEndedIncidents, openIncident } from './incidents.ts';
import { membersAlertedAtOnce } from './preferences.ts';

/** The scheduled run of `runAlerts`. */
export const ALERTS_JOB = 'alerts';

/** A queue whose oldest waiting message is older than this is stuck. */
const QUEUE_STUCK_SECONDS = 15 * 60;
/** A gateway with this many forged notifies within the window is an incident, until a window has none. */
const FORGED_NOTIFIES = 3;
const FORGED_WINDOW_MS = 15 * 60_000;

export interface AlertsDeps {
  db: Database;
  mailer: AlertMailer;
  now: Date;
  /** The back office's origin, for the links. */
  adminOrigin: string;
  /** A node not heard from for this long is an incident. */
  nodeSilentMinutes: number;
}

/** An incident opened or ended in this run, with what its alert says. */
interface Change {
  kind: StaffAlertKind;
  label: string;
  opened: boolean;
  /** How many wait (the attention queue) or were refused (a gateway's notifies). */
  count: number;
}

/**
 * Opens an incident for each subject among `now` (those this run found), and closes the open ones of
 * the kind whose subject is not among `still` (by default the same): the changes to alert.
 */
async function track(
  db: Database,
  kind: StaffAlertKind,
  found: { subject: string; label: string; count?: number }[],
  at: Date,
  still: string[] = found.map((each) => each.subject),
): Promise<Change[]> {
  const changes: Change[] = [];
  for (const each of found) {
    if (await openIncident(db, kind, each.subject, each.label, at))
      changes.push({ kind, label: each.label, opened: true, count: each.count ?? 0 });
  }
  for (const ended of await closeEndedIncidents(db, kind, still, at))
    changes.push({ kind, label: ended.label, opened: false, count: 0 });
  return changes;
}

/** What this run finds, kind by kind: each incident opened and each one ended since the last run. */
async function detectChanges(deps: AlertsDeps): Promise<Change[]> {
  const { db, now } = deps;
  const silent = await silentNodes(db, new Date(now.getTime() - deps.nodeSilentMinutes * 60_000));
  const failing = await jobsFailingTwice(db);
  const [mail, telegram, attention, forged] = await Promise.all([
    mailBacklog(db, now),
    telegramBacklog(db, now),
    attentionCounts(db, now, ATTENTION_MAIL_DAYS),
    forgedNotifiesSince(db, new Date(now.getTime() - FORGED_WINDOW_MS)),
  ]);
  const queue = (stuck: boolean, name: string) => (stuck ? [{ subject: '', label: name }] : []);
  // A gateway by the name staff gave it (for buyers, in English and Chinese), not by its id.
  const gatewayNames = await gatewayNamesOf(
    db,
    forged.map((gateway) => gateway.provider),
  );
  const gatewayLabel = (provider: string) => {
    const names = gatewayNames.get(provider);
    if (!names) return provider;
    return names.zh === names.en ? names.en : `${names.en} / ${names.zh}`;
  };
  return [
    ...(await track(
      db,
      'node_silent',
      silent.map((node) => ({ subject: node.id, label: node.name })),
      now,
    )),
    ...(await track(
      db,
      'job_failing',
      failing.map((job) => ({ subject: job, label: job })),
      now,
    )),
    ...(await track(
      db,
      'mail_stuck',
      queue(mail.pending > 0 && mail.oldestPendingSeconds > QUEUE_STUCK_SECONDS, 'mail'),
      now,
    )),
    ...(await track(
      db,
      'telegram_stuck',
      queue(telegram.pending > 0 && telegram.oldestSeconds > QUEUE_STUCK_SECONDS, 'telegram'),
      now,
    )),
    ...(await track(
      db,
      'attention',
      Object.entries(attention)
        .filter(([, count]) => count > 0)
        .map(([name, count]) => ({ subject: name, label: name, count })),
      now,
    )),
    // However many forged notifies arrive, a gateway has one open incident; it ends once a whole
    // window passes without one.
    ...(await track(
      db,
      'gateway_failing',
      forged
        .filter((gateway) => gateway.refused >= FORGED_NOTIFIES)
        .map((gateway) => ({
          subject: gateway.provider,
          label: gatewayLabel(gateway.provider),
          count: gateway.refused,
        })),
      now,
      forged.map((gateway) => gateway.provider),
    )),
  ];
}

/**
 * One run of the staff alerts (PRODUCT.md section 11): opens an incident for each node not heard
 * from for `nodeSilentMinutes`, each stuck queue, each job failing twice, each kind of the attention
 * queue that is no longer empty and each gateway whose notifies are forged, closes those that ended,
 * and tells each change once to the members who chose its kind at once, on their channel, in their
 * language, with a link into the back office; then the day's digests when they are due. The open
 * incident's unique key makes instances running this together alert once.
 */
export async function runAlerts(
  deps: AlertsDeps,
): Promise<{ opened: number; closed: number; digests: number }> {
  const { db, now } = deps;
  const changes = await detectChanges(deps);
  if (changes.length > 0) {
    const members = await membersAlertedAtOnce(db);
    const messages = members.flatMap((member) => {
      const language = languageOf(member);
      return changes
        .filter((change) => member.preferences.kinds.includes(change.kind))
        .map((change) => {
          const text = ALERT_TEXTS[language][change.kind];
          const fill = (pattern: string) =>
            fillAlertText(pattern, language, change.kind, { ...change, minutes: deps.nodeSilentMinutes });
          return {
            member,
            mail: {
              to: member.email,
              template: 'staff_alert' as const,
              language,
              params: {
                title: fill(change.opened ? text.opened : text.closed),
                detail: change.opened ? fill(text.detail) : '',
                link: `${deps.adminOrigin}${BACK_OFFICE_PATH[change.kind]}`,
              },
            },
          };
        });
    });
    await db.transaction((tx) => queueForMembers(tx, deps.mailer, messages, now));
    deps.mailer.deliverSoon();
  }
  const digests = await sendDueDigests(deps);
  return {
    opened: changes.filter((change) => change.opened).length,
    closed: changes.filter((change) => !change.opened).length,
    digests,
  };
}
