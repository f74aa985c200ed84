import { and, eq, isNull, notInArray, sql } from 'drizzle-orm';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import { alertIncidents } from '../../db/schema/index.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { mailBacklog } from '../mail/repository.ts';
import { silentNodes } from '../nodes/repository.ts';
import { jobsFailingTwice } from '../operations/job-runs-repository.ts';
import { alertRecipients } from '../staff/repository.ts';
import { telegramBacklog } from '../telegram/repository.ts';

/** The scheduled run of `runAlerts`. */
export const ALERTS_JOB = 'alerts';

/** A queue whose oldest waiting message is older than this is stuck. */
const QUEUE_STUCK_SECONDS = 15 * 60;

type IncidentKind = 'node_silent' | 'mail_stuck' | 'telegram_stuck' | 'job_failing';

/** What an alert says, in each staff language: its title when it opens and when it ends. */
const ALERT_TEXTS: Record<
  Language,
  Record<IncidentKind, { opened: string; closed: string; detail: string }>
> = {
  en: {
    node_silent: {
      opened: 'Node {label} is not reporting',
      closed: 'Node {label} is reporting again',
      detail: 'Its agent was not heard from for {minutes} minutes.',
    },
    mail_stuck: {
      opened: 'The mail queue is stuck',
      closed: 'The mail queue moves again',
      detail: 'Mail has waited more than 15 minutes.',
    },
    telegram_stuck: {
      opened: 'The Telegram queue is stuck',
      closed: 'The Telegram queue moves again',
      detail: 'Telegram messages have waited more than 15 minutes.',
    },
    job_failing: {
      opened: 'Job {label} failed twice in a row',
      closed: 'Job {label} runs again',
      detail: 'Its two latest runs failed; the jobs screen has their errors.',
    },
  },
  zh: {
    node_silent: {
      opened: '节点 {label} 没有上报',
      closed: '节点 {label} 已恢复上报',
      detail: '已有 {minutes} 分钟未收到其代理的消息。',
    },
    mail_stuck: { opened: '邮件队列阻塞', closed: '邮件队列已恢复', detail: '有邮件已等待超过 15 分钟。' },
    telegram_stuck: {
      opened: 'Telegram 队列阻塞',
      closed: 'Telegram 队列已恢复',
      detail: '有 Telegram 消息已等待超过 15 分钟。',
    },
    job_failing: {
      opened: '任务 {label} 连续两次失败',
      closed: '任务 {label} 已恢复运行',
      detail: '最近两次运行均失败，错误信息见任务页面。',
    },
  },
  tw: {
    node_silent: {
      opened: '節點 {label} 沒有回報',
      closed: '節點 {label} 已恢復回報',
      detail: '已有 {minutes} 分鐘未收到其代理的訊息。',
    },
    mail_stuck: { opened: '郵件佇列阻塞', closed: '郵件佇列已恢復', detail: '有郵件已等待超過 15 分鐘。' },
    telegram_stuck: {
      opened: 'Telegram 佇列阻塞',
      closed: 'Telegram 佇列已恢復',
      detail: '有 Telegram 訊息已等待超過 15 分鐘。',
    },
    job_failing: {
      opened: '任務 {label} 連續兩次失敗',
      closed: '任務 {label} 已恢復運行',
      detail: '最近兩次執行均失敗，錯誤訊息見任務頁面。',
    },
  },
};

/** Where in the back office each kind is looked into. */
const BACK_OFFICE_PATH: Record<IncidentKind, string> = {
  node_silent: '/admin/nodes',
  mail_stuck: '/admin/mail',
  telegram_stuck: '/admin/attention',
  job_failing: '/admin/jobs',
};

export interface AlertsDeps {
  db: Database;
  mailer: Pick<Mailer, 'sendBatch'>;
  now: Date;
  /** The back office's origin, for the links. */
  adminOrigin: string;
  /** A node not heard from for this long is an incident. */
  nodeSilentMinutes: number;
}

interface Change {
  kind: IncidentKind;
  label: string;
  opened: boolean;
}

/** Opens an incident unless one of this kind and subject is open: true when this call opened it. */
async function open(
  db: Database,
  kind: IncidentKind,
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
async function closeEnded(db: Database, kind: IncidentKind, still: string[], now: Date) {
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
    .returning({ label: alertIncidents.label });
}

async function queueIncident(
  db: Database,
  kind: IncidentKind,
  stuck: boolean,
  label: string,
  now: Date,
): Promise<Change[]> {
  if (stuck) return (await open(db, kind, '', label, now)) ? [{ kind, label, opened: true }] : [];
  return (await closeEnded(db, kind, [], now)).map(() => ({ kind, label, opened: false }));
}

/**
 * One run of the staff alerts (PRODUCT.md section 11): opens an incident for each node not heard
 * from for `nodeSilentMinutes` and each stuck queue, closes those that ended, and mails each
 * change once to the owners and admins in their language, with a link into the back office. The
 * open incident's unique key makes instances running this together alert once.
 */
export async function runAlerts(deps: AlertsDeps): Promise<{ opened: number; closed: number }> {
  const { db, now } = deps;
  const changes: Change[] = [];
  const silent = await silentNodes(db, new Date(now.getTime() - deps.nodeSilentMinutes * 60_000));
  for (const node of silent) {
    if (await open(db, 'node_silent', node.id, node.name, now))
      changes.push({ kind: 'node_silent', label: node.name, opened: true });
  }
  for (const back of await closeEnded(
    db,
    'node_silent',
    silent.map((node) => node.id),
    now,
  ))
    changes.push({ kind: 'node_silent', label: back.label, opened: false });
  const failing = await jobsFailingTwice(db);
  for (const job of failing) {
    if (await open(db, 'job_failing', job, job, now))
      changes.push({ kind: 'job_failing', label: job, opened: true });
  }
  for (const back of await closeEnded(db, 'job_failing', failing, now))
    changes.push({ kind: 'job_failing', label: back.label, opened: false });
  const [mail, telegram] = await Promise.all([mailBacklog(db, now), telegramBacklog(db, now)]);
  changes.push(
    ...(await queueIncident(
      db,
      'mail_stuck',
      mail.pending > 0 && mail.oldestPendingSeconds > QUEUE_STUCK_SECONDS,
      'mail',
      now,
    )),
    ...(await queueIncident(
      db,
      'telegram_stuck',
      telegram.pending > 0 && telegram.oldestSeconds > QUEUE_STUCK_SECONDS,
      'telegram',
      now,
    )),
  );
  if (changes.length > 0) {
    const recipients = await alertRecipients(db);
    const messages: MailMessage[] = recipients.flatMap((member) => {
      const language = isLanguage(member.language) ? member.language : DEFAULT_LANGUAGE;
      return changes.map((change) => {
        const text = ALERT_TEXTS[language][change.kind];
        const fill = (pattern: string) =>
          pattern.replace('{label}', change.label).replace('{minutes}', String(deps.nodeSilentMinutes));
        return {
          to: member.email,
          template: 'staff_alert' as const,
          language,
          params: {
            title: fill(change.opened ? text.opened : text.closed),
            detail: change.opened ? fill(text.detail) : '',
            link: `${deps.adminOrigin}${BACK_OFFICE_PATH[change.kind]}`,
          },
        };
      });
    });
    await deps.mailer.sendBatch(messages);
  }
  return {
    opened: changes.filter((change) => change.opened).length,
    closed: changes.filter((change) => !change.opened).length,
  };
}
