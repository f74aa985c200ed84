import { z } from 'zod';
import { isoTime, sortQuery } from './common.ts';
import { listQuery } from '../paging.ts';

/** One change made by staff, as the audit log keeps it. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: isoTime,
  /** Null for a change made with the break-glass command line. */
  staff_id: z.uuid().nullable(),
  staff_email: z.string(),
  role: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});

export const auditListQuery = listQuery.extend(sortQuery.shape).extend({
  staff_id: z.uuid().optional(),
  action: z.string().trim().min(1).max(64).optional(),
  target_type: z.string().trim().min(1).max(64).optional(),
  target_id: z.string().trim().min(1).max(128).optional(),
});
