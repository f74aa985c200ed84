import { pageRequest } from './paging.ts';

export const inviteListRequest = pageRequest;

/** Reply of `/web/invite/conf`. */
export interface InviteConf {
  open_trial: '1' | '0';
  trial_minute: number;
  invite_minute: number;
}

/** Reply of `/web/invite/claim` and `/web/invite/withdraw`: minutes added and the new expiry. */
export interface TimeGrant {
  trial_time: number;
  expire_user: number;
}

export interface InvitedAccount {
  /** Masked, e.g. `ab***@qq.com`. */
  account: string;
  /** When the invited account completed registration, unix seconds. */
  complete_time: number;
  trial_minute: number;
  claimed: boolean;
}

/** Reply of `/web/invite/list`. */
export interface InviteList {
  total: number;
  unclaimed_users: number;
  unclaimed_minutes: number;
  invite_code: string;
  list: InvitedAccount[];
}

/** The share link of an invite code (PRODUCT.md section 3). */
export const shareLink = (origin: string, inviteCode: string) =>
  `${origin}/login?formType=regist&invite_code=${encodeURIComponent(inviteCode)}`;
