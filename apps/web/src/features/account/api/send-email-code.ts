import type { VerifyEmailRequest } from '@skyway/shared/accounts';
import type { NoFields } from '@skyway/shared/envelope';
import { request } from '../../../lib/api-client.ts';

/** Asks for a code to confirm a new address; resolves with the server's msg ("code sent"). */
export async function sendChangeEmailCode(email: string): Promise<string> {
  const payload: VerifyEmailRequest = { email, scene: 'email' };
  const { msg } = await request<NoFields>('/web/login/verify_email', payload);
  return msg;
}
