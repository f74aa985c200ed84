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

/** The `:id` of a resource that is a UUID. */
export const uuidParams = z.object({ id: z.uuid() });
