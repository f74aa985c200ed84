import type { z } from 'zod';
import type { staffSignInReply, staffSignInRequest } from '@skyway/shared/schemas/admin/staff';
import { api } from '../../../lib/api-client.ts';

/** The first step of signing in: the password; the second factor comes next. */
export const signIn = (body: z.infer<typeof staffSignInRequest>) =>
  api<z.infer<typeof staffSignInReply>>('POST', '/session', body);
