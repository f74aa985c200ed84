import { z } from 'zod';

/** `page` (from 1) and `size` of a paginated list, read from the payload or the query string. */
const pageQuery = (defaultSize: number) =>
  z.object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    size: z.coerce.number().int().min(1).max(100).default(defaultSize),
  });

/** The site's lists: 10 rows a page unless asked. */
export const pageRequest = pageQuery(10);

/** The back office's lists: 20 rows a page unless asked. */
export const listQuery = pageQuery(20);

/** One page of a list: the items and how many match in all. */
export const pageOf = <Item extends z.ZodType>(item: Item) =>
  z.object({ total: z.number().int(), page: z.number().int(), size: z.number().int(), items: z.array(item) });

/** A page of a list that may be long: its total is counted up to a cap only (`total_capped`). */
export const cappedPageOf = <Item extends z.ZodType>(item: Item) =>
  pageOf(item).extend({ total_capped: z.boolean() });
