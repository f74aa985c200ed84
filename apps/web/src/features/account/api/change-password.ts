import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '@skyway/shared/accounts';
import type { NoFields } from '@skyway/shared/envelope';
import { request } from '../../../lib/api-client.ts';

/** Resolves with the server's msg, which the dialog shows as the success message. */
export async function changePassword(input: ChangePasswordRequest): Promise<string> {
  const { msg } = await request<NoFields>('/web/login/pass', { ...input });
  return msg;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
