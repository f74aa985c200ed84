import type { EmailCodeScene } from '@skyway/shared/accounts';
import { request } from '../../../lib/api-client.ts';

/** Asks for a code for a registration or a password reset; resolves with the server's msg ("code sent"). */
export async function sendEmailCode(email: string, scene: Exclude<EmailCodeScene, 'email'>): Promise<string> {
  const { msg } = await request<Record<string, never>>('/web/login/verify_email', { email, scene });
  return msg;
}
