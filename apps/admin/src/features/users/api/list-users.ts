import type { z } from 'zod';
import type { userSummarySchema } from '@skyway/shared/schemas/admin/users';
import { usePageList } from '../../../lib/use-page-list.ts';

export type UserSummary = z.infer<typeof userSummarySchema>;

/** Accounts a page at a time, newest first until turned, narrowed by a search (`q`). */
export const useUsers = (q: string) => usePageList<UserSummary>('/users', { q }, { sortable: true });
