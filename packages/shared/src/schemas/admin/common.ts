import { z } from 'zod';
import { LANGUAGES } from '../../languages.ts';

/** Times in the back office's API are ISO 8601 strings in UTC; null where there is none. */
export const isoTime = z.iso.datetime();

/** Newest first (the default) or oldest first: the logs and the money lists sort by their time, the column they are indexed on. */
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const sortQuery = z.object({ order: z.enum(SORT_ORDERS).default('desc') });

/** The `:id` of a resource that is a UUID. */
export const uuidParams = z.object({ id: z.uuid() });

/** Past this many matches a long list says "more than" rather than counting them all. */
export const COUNT_CAP = 10_000;

/** A text in each of the site's languages, each checked by `text`. */
export const inEachLanguage = <Text extends z.ZodType>(text: Text) =>
  z.object(
    Object.fromEntries(LANGUAGES.map((language) => [language, text])) as Record<
      (typeof LANGUAGES)[number],
      Text
    >,
  );
