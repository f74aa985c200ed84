import { z } from 'zod';
import { pageRequest } from './paging.ts';

export const inviteListRequest = pageRequest;

/** Reply of `/web/invite/conf`. */
export const inviteConfSchema = z.object({
  open_trial: z.enum(['1', '0']),
  trial_minute: z.number().int(),
  invite_minute: z.number().int(),
});

/** Reply of `/web/invite/claim` and `/web/invite/withdraw`: minutes added and the new expiry. */
export const timeGrantSchema = z.object({
  trial_time: z.number().int(),
  expire_user: z.number().int(),
});

export const invitedAccountSchema = z.object({
  /** Masked, e.g. `ab***@qq.com`. */
  account: z.string(),
  /** When the invited account completed registration, unix seconds. */
  complete_time: z.number().int(),
  trial_minute: z.number().int(),
  claimed: z.boolean(),
});

/** Reply of `/web/invite/list`. */
export const inviteListSchema = z.object({
  total: z.number().int(),
  unclaimed_users: z.number().int(),
  unclaimed_minutes: z.number().int(),
  invite_code: z.string(),
  list: z.array(invitedAccountSchema),
});
