import type { ForgetRequest } from '@skyway/shared/accounts';
import type { NoFields } from '@skyway/shared/envelope';
import { request } from '../../../lib/api-client.ts';

/** Sets a new password with a code mailed for the 'forget' scene; resolves with the server's msg. */
export async function resetPassword(input: ForgetRequest): Promise<string> {
  const { msg } = await request<NoFields>('/web/login/forget', { ...input });
  return msg;
}
