import { useMutation } from '@tanstack/react-query';
import type { ChangeEmailRequest } from '@skyway/shared/accounts';
import { sessionUserSchema } from '@skyway/shared/schemas/user';
import { request } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.ts';

/**
 * A change of address revokes every session, this one included, and the reply carries a new token
 * for this browser with the user: both replace the stored ones, or the next call would get 401.
 * Resolves with the server's msg.
 */
export async function changeEmail(input: ChangeEmailRequest): Promise<string> {
  const { data, msg } = await request<unknown>('/web/login/email', { ...input });
  startSession(sessionUserSchema.parse(data));
  return msg;
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}
