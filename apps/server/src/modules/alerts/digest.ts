import type { Language } from '@skyway/shared/languages';
import { ATTENTION_MAIL_DAYS } from '@skyway/shared/schemas/admin/sales';
import type { StaffAlertKind } from '@skyway/shared/schemas/admin/alerts';
import type { Database } from '../../db/client.ts';
import type { AlertIncidentRow } from '../../db/schema/index.ts';
import { customerTime } from '../../lib/customer-time.ts';
import { attentionCounts } from '../sales/repository.ts';
import {
  ALERT_TEXTS,
  ATTENTION_NAMES,
  BACK_OFFICE_PATH,
  DIGEST_TEXTS,
  fillAlertText,
} from './alert-texts.ts';
import { type AlertMailer, languageOf, queueForMembers } from './delivery.ts';
import { incidentsSince } from './incidents.ts';
import { type AlertMember, claimDigests } from './preferences.ts';

const DAY_MS = 24 * 60 * 60_000;
/** The digest goes at 09:00 UTC+8, which is 01:00 UTC. */
const DIGEST_HOUR_UTC = 1;

/** The latest digest time at or before `now`. */
export function digestDue(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DIGEST_HOUR_UTC);
  return new Date(today <= now.getTime() ? today : today - DAY_MS);
}

interface DigestFacts {
  incidents: AlertIncidentRow[];
  attention: Record<string, number>;
  since: Date;
  adminOrigin: string;
  nodeSilentMinutes: number;
}

/** A member's digest as Markdown in their language, or null when it has nothing to tell them. */
function digestSummary(member: AlertMember, language: Language, facts: DigestFacts): string | null {
  const kinds: readonly string[] = member.preferences.kinds;
  const theirs = facts.incidents.filter((incident) => kinds.includes(incident.kind));
  const headings = DIGEST_TEXTS[language];
  const line = (incident: AlertIncidentRow, ended: boolean) => {
    const kind = incident.kind as StaffAlertKind;
    const text = ALERT_TEXTS[language][kind];
    const title = fillAlertText(ended ? text.closed : text.opened, language, kind, {
      label: incident.label,
      count: facts.attention[incident.subject] ?? 0,
      minutes: facts.nodeSilentMinutes,
    });
    const at = customerTime(ended && incident.closedAt ? incident.closedAt : incident.openedAt);
    return `- ${title} (${at}) ${facts.adminOrigin}${BACK_OFFICE_PATH[kind]}`;
  };
  const section = (heading: string, lines: string[]) =>
    lines.length ? [`**${heading}**`, '', ...lines, ''] : [];
  const waiting = kinds.includes('attention')
    ? Object.entries(facts.attention).filter(([, count]) => count > 0)
    : [];
  const parts = [
    ...section(
      headings.opened,
      theirs.filter((incident) => incident.openedAt >= facts.since).map((incident) => line(incident, false)),
    ),
    ...section(
      headings.closed,
      theirs
        .filter((incident) => incident.closedAt && incident.closedAt >= facts.since)
        .map((incident) => line(incident, true)),
    ),
    ...section(
      headings.open,
      theirs.filter((incident) => !incident.closedAt).map((incident) => line(incident, false)),
    ),
    ...section(headings.attention, [
      ...waiting.map(([name, count]) => `- ${ATTENTION_NAMES[language][name] ?? name}: ${count}`),
      ...(waiting.length ? [`${facts.adminOrigin}${BACK_OFFICE_PATH.attention}`] : []),
    ]),
  ];
  return parts.length ? parts.join('\n').trim() : null;
}

/**
 * The day's digest to each member who chose it and has not had it since 09:00 UTC+8: what opened
 * and ended in the last 24 hours, what is still open and what waits in the attention queue, among
 * the kinds they chose. Claimed and queued in one transaction, so each member gets it once a day
 * however many instances run the job; a member with nothing to be told gets nothing.
 */
export async function sendDueDigests(deps: {
  db: Database;
  mailer: AlertMailer;
  now: Date;
  adminOrigin: string;
  nodeSilentMinutes: number;
}): Promise<number> {
  const { now, mailer } = deps;
  const queued = await deps.db.transaction(async (tx) => {
    const members = await claimDigests(tx, digestDue(now), now);
    if (members.length === 0) return 0;
    const since = new Date(now.getTime() - DAY_MS);
    const facts: DigestFacts = {
      incidents: await incidentsSince(tx, since),
      attention: await attentionCounts(tx, now, ATTENTION_MAIL_DAYS),
      since,
      adminOrigin: deps.adminOrigin,
      nodeSilentMinutes: deps.nodeSilentMinutes,
    };
    const messages = members.flatMap((member) => {
      const language = languageOf(member);
      const summary = digestSummary(member, language, facts);
      if (!summary) return [];
      const mail = {
        to: member.email,
        template: 'staff_digest' as const,
        language,
        params: { date: customerTime(now).slice(0, 10), summary, link: `${deps.adminOrigin}/admin/` },
      };
      return [{ member, mail }];
    });
    await queueForMembers(tx, mailer, messages, now);
    return messages.length;
  });
  if (queued > 0) mailer.deliverSoon();
  return queued;
}
