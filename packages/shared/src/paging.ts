import type { z } from 'zod';
import type { pageOf, pageRequest } from './schemas/paging.ts';

export type PageRequest = z.infer<typeof pageRequest>;

/** One page of a list; `total_capped` where the list counts its total up to a cap only. */
export type Page<Item> = z.infer<ReturnType<typeof pageOf<z.ZodType<Item>>>> & { total_capped?: boolean };
