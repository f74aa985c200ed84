import { z } from 'zod';

/** `page` (from 1) and `size` of every paginated list call. */
export const pageRequest = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
});
