import type { z } from 'zod';
import type { auditEntrySchema } from '@skyway/shared/schemas/admin/audit';
import { usePageList } from '../../../lib/use-page-list.ts';

export type AuditEntry = z.infer<typeof auditEntrySchema>;
export type AuditFilters = { action?: string; target_type?: string; target_id?: string };

/** Every change made by staff, a page at a time, newest first until turned. */
export const useAuditLog = (filters: AuditFilters) =>
  usePageList<AuditEntry>('/audit', filters, { sortable: true });
