import { useQuery } from '@tanstack/react-query';
import { userInfoSchema } from '@skyway/shared/schemas/user';
import type { UserInfo } from '@skyway/shared/user';
import { callApi } from './api-client.ts';
import { replaceUser } from './session.ts';

// In lib rather than a feature: the console layout reads it, the buy page previews a purchase from
// it, and the payment inquiry refreshes it after a payment.
export const USER_INFO_QUERY_KEY = ['user-info'] as const;

/** Reads the signed-in user and refreshes the stored copy that the console shows. */
export async function fetchUserInfo(): Promise<UserInfo> {
  const info = userInfoSchema.parse(await callApi<unknown>('/web/user/info'));
  replaceUser({
    account: info.account,
    expire_user: info.expire_user,
    subscribe_type: info.subscribe_type,
    invite_code: info.invite_code,
    connections: info.connections,
  });
  return info;
}

export function useUserInfo() {
  return useQuery({ queryKey: USER_INFO_QUERY_KEY, queryFn: fetchUserInfo, staleTime: 0 });
}
