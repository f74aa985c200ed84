import type { z } from 'zod';
import type { pageRequest } from './schemas/paging.ts';

export type PageRequest = z.infer<typeof pageRequest>;
