import type { LoginRequest } from '@skyway/shared/accounts';
import type { SessionUser } from '@skyway/shared/user';
import { callApi } from '../../../lib/api-client.ts';
import { sessionUserOf } from './session-user.ts';

/** Signs in; resolves with the token and the user's fields. */
export async function login(input: LoginRequest): Promise<SessionUser> {
  return sessionUserOf(await callApi<unknown>('/web/login/login', { ...input }));
}
