import { z } from 'zod';
import { MAIL_STATUSES } from '../../mail.ts';
import { isoTime, sortQuery } from './common.ts';
import { listQuery } from '../paging.ts';

/** The outbox, newest first: all of it, or by status, template or recipient (the whole address). */
export const mailListQuery = listQuery.extend(sortQuery.shape).extend({
  status: z.enum(MAIL_STATUSES).optional(),
  template: z.string().trim().min(1).max(64).optional(),
  to: z.string().trim().min(3).max(254).optional(),
});

/** A message as the outbox keeps it; its body is not shown (a code mail's may hold a code). */
export const mailEntrySchema = z.object({
  id: z.uuid(),
  to: z.string(),
  template: z.string(),
  language: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  error: z.string().nullable(),
  user_id: z.uuid().nullable(),
  created_at: isoTime,
  next_attempt_at: isoTime,
  sent_at: isoTime.nullable(),
});

/** One run of a scheduled job, on whichever instance ran it. */
export const jobRunSchema = z.object({
  started_at: isoTime,
  finished_at: isoTime,
  succeeded: z.boolean(),
  result: z.unknown(),
  error: z.string().nullable(),
});

/** Each scheduled job: how often it runs here (0: not on this instance) and its latest runs. */
export const jobsSchema = z.array(
  z.object({
    name: z.string(),
    every_seconds: z.number().int(),
    runs: z.array(jobRunSchema),
  }),
);
