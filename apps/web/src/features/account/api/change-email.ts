import { useMutation } from '@tanstack/react-query';
import { userSchema } from '@skyway/shared/user';
import { request } from '../../../lib/api-client.ts';
import { replaceUser } from '../../../lib/session.ts';

export interface ChangeEmailInput {
  email: string;
  email_code: string;
}

/** The reply is the user with the new address, which replaces the stored one; resolves with msg. */
export async function changeEmail(input: ChangeEmailInput): Promise<string> {
  const { data, msg } = await request<unknown>('/web/login/email', { ...input });
  replaceUser(userSchema.parse(data));
  return msg;
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}
