import type { z } from 'zod';
import type {
  inviteConfSchema,
  invitedAccountSchema,
  inviteListSchema,
  timeGrantSchema,
} from './schemas/invitations.ts';

export type InviteConf = z.infer<typeof inviteConfSchema>;
export type TimeGrant = z.infer<typeof timeGrantSchema>;
export type InvitedAccount = z.infer<typeof invitedAccountSchema>;
export type InviteList = z.infer<typeof inviteListSchema>;

/** The share link of an invite code (PRODUCT.md section 3). */
export const shareLink = (origin: string, inviteCode: string) =>
  `${origin}/login?formType=regist&invite_code=${encodeURIComponent(inviteCode)}`;
