import type { z } from 'zod';
import type { staffSchema } from '@skyway/shared/schemas/admin/staff';
import { usePageList } from '../../../lib/use-page-list.ts';

export type Staff = z.infer<typeof staffSchema>;

export const STAFF_KEY = ['/staff'];

/** The members of staff a page at a time, newest first until turned. */
export const useStaff = () => usePageList<Staff>('/staff', {}, { sortable: true });
