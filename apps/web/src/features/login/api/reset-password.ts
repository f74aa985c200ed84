import type { ForgetRequest } from '@skyway/shared/accounts';
import { request } from '../../../lib/api-client.ts';

/** Sets a new password with a code mailed for the 'forget' scene; resolves with the server's msg. */
export async function resetPassword(input: ForgetRequest): Promise<string> {
  const { msg } = await request<Record<string, never>>('/web/login/forget', { ...input });
  return msg;
}
