import type { EmailCodeScene, VerifyEmailRequest } from '@skyway/shared/accounts';
import type { NoFields } from '@skyway/shared/envelope';
import { request } from '../../../lib/api-client.ts';

/** Asks for a code for a registration or a password reset; resolves with the server's msg ("code sent"). */
export async function sendEmailCode(email: string, scene: Exclude<EmailCodeScene, 'email'>): Promise<string> {
  const payload: VerifyEmailRequest = { email, scene };
  const { msg } = await request<NoFields>('/web/login/verify_email', payload);
  return msg;
}
