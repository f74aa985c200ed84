import type { LoginRequest } from '@skyway/shared/accounts';
import { sessionUserSchema, type SessionUser } from '@skyway/shared/user';
import { callApi } from '../../../lib/api-client.ts';

/** Signs in; resolves with the token and the user's fields. */
export async function login(input: LoginRequest): Promise<SessionUser> {
  return sessionUserSchema.parse(await callApi<unknown>('/web/login/login', { ...input }));
}
