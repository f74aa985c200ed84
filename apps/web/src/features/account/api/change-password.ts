import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.ts';

export interface ChangePasswordInput {
  old_pwd: string;
  new_pwd: string;
}

/** Resolves with the server's msg, which the dialog shows as the success message. */
export async function changePassword(input: ChangePasswordInput): Promise<string> {
  const { msg } = await request<Record<string, never>>('/web/login/pass', { ...input });
  return msg;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
