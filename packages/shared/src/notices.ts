import { LANGUAGES, type Language } from './languages.ts';

/**
 * Notices (PRODUCT.md section 7): announcements staff write in the back office, in every language,
 * that customers read in the console and, when marked, on the download page.
 */

/** Who sees a notice in the console and gets it by mail: the download page shows it to everyone. */
export const NOTICE_AUDIENCES = ['all', 'with_access', 'without_access'] as const;
export type NoticeAudience = (typeof NOTICE_AUDIENCES)[number];

/**
 * Where a notice stands, read from its times: `draft` has no publish time; `scheduled` publishes
 * later; `published` shows now; `expired` showed until its expiry time, which has passed.
 */
export const NOTICE_STATES = ['draft', 'scheduled', 'published', 'expired'] as const;
export type NoticeState = (typeof NOTICE_STATES)[number];

export const NOTICE_TITLE_MAX = 120;
export const NOTICE_BODY_MAX = 10_000;
/** The console lists at most this many notices, newest first. */
export const NOTICE_LIST_MAX = 20;

/** A text in each language. */
export type Translated = Record<Language, string>;

export function noticeState(
  times: { publishAt: Date | null; expireAt: Date | null },
  now: Date,
): NoticeState {
  if (times.publishAt === null) return 'draft';
  if (times.expireAt !== null && times.expireAt.getTime() <= now.getTime()) return 'expired';
  if (times.publishAt.getTime() > now.getTime()) return 'scheduled';
  return 'published';
}

export const translated = (make: (language: Language) => string): Translated =>
  Object.fromEntries(LANGUAGES.map((language) => [language, make(language)])) as Translated;
