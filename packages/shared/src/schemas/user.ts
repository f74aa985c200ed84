import { z } from 'zod';
import { SUBSCRIBE_TYPES } from '../user.ts';

/** The user fields of every reply that carries a user; `expire_user` is unix seconds, 0 = never. */
export const userSchema = z.object({
  account: z.string(),
  expire_user: z.number().int(),
  subscribe_type: z.literal(Object.values(SUBSCRIBE_TYPES)),
  invite_code: z.string(),
  connections: z.number().int(),
});

/** Reply of login, register and change-email: the user plus the session token. */
export const sessionUserSchema = userSchema.extend({ token: z.string() });

/** Reply of `/web/user/info`. */
export const userInfoSchema = userSchema.extend({
  /** A downgrade bought earlier, and when it applies (unix seconds, 0 = none). */
  pending_connections: z.number().int().nullable(),
  pending_from: z.number().int(),
  auto_renew: z.boolean(),
  /** The end of the current app-store period (unix seconds; 0 = no app-store subscription). */
  app_store_expire: z.number().int(),
  app_account_token: z.string(),
  /** When the access the free trial granted ends (unix seconds); 0 = the trial was never claimed. */
  trial_end: z.number().int(),
});
