import type { RegisterRequest } from '@skyway/shared/accounts';
import type { SessionUser } from '@skyway/shared/user';
import { callApi } from '../../../lib/api-client.ts';
import { sessionUserOf } from './session-user.ts';

/** Creates the account; resolves like login(). An empty invite code is not sent. */
export async function register({ invite_code, ...input }: RegisterRequest): Promise<SessionUser> {
  const payload = invite_code ? { ...input, invite_code } : input;
  return sessionUserOf(await callApi<unknown>('/web/login/register', payload));
}
