import { z } from 'zod';

/** 1 not purchased, 2 bought through a card payment provider, 3 subscribed through an app store. */
export const SUBSCRIBE_TYPES = { none: 1, card: 2, appStore: 3 } as const;
export type SubscribeType = (typeof SUBSCRIBE_TYPES)[keyof typeof SUBSCRIBE_TYPES];

/** The user fields of every reply that carries a user; `expire_user` is unix seconds, 0 = never. */
export const userSchema = z.object({
  account: z.string(),
  expire_user: z.number().int(),
  subscribe_type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  invite_code: z.string(),
  connections: z.number().int(),
});
export type User = z.infer<typeof userSchema>;

/** Reply of login and register: the user plus the session token. */
export const sessionUserSchema = userSchema.extend({ token: z.string() });
export type SessionUser = z.infer<typeof sessionUserSchema>;

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
export type UserInfo = z.infer<typeof userInfoSchema>;
