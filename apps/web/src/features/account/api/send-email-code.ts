import { request } from '../../../lib/api-client.ts';

/** Asks for a code to confirm a new address; resolves with the server's msg ("code sent"). */
export async function sendChangeEmailCode(email: string): Promise<string> {
  const { msg } = await request<Record<string, never>>('/web/login/verify_email', { email, scene: 'email' });
  return msg;
}
