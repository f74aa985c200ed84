import { z } from 'zod';

/** Times in the back office's API are ISO 8601 strings in UTC; null where there is none. */
export const isoTime = z.iso.datetime();

/** `page` (from 1) and `size` of every list, read from the query string. */
export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

/** One page of a list: the items and how many match in all. */
export const pageOf = <Item extends z.ZodType>(item: Item) =>
  z.object({ total: z.number().int(), page: z.number().int(), size: z.number().int(), items: z.array(item) });

/** Newest first (the default) or oldest first: the logs and the money lists sort by their time, the column they are indexed on. */
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const sortQuery = z.object({ order: z.enum(SORT_ORDERS).default('desc') });

/** The `:id` of a resource that is a UUID. */
export const uuidParams = z.object({ id: z.uuid() });

/** Past this many matches a long list says "more than" rather than counting them all. */
export const COUNT_CAP = 10_000;

/** A page of a list that may be long: its total is counted up to COUNT_CAP only (`total_capped`). */
export const cappedPageOf = <Item extends z.ZodType>(item: Item) =>
  pageOf(item).extend({ total_capped: z.boolean() });
