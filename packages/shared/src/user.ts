import type { z } from 'zod';
import type { sessionUserSchema, userInfoSchema, userSchema } from './schemas/user.ts';

/** 1 not purchased, 2 bought through a card payment provider, 3 subscribed through an app store. */
export const SUBSCRIBE_TYPES = { none: 1, card: 2, appStore: 3 } as const;
export type SubscribeType = (typeof SUBSCRIBE_TYPES)[keyof typeof SUBSCRIBE_TYPES];

export type User = z.infer<typeof userSchema>;
export type SessionUser = z.infer<typeof sessionUserSchema>;
export type UserInfo = z.infer<typeof userInfoSchema>;
