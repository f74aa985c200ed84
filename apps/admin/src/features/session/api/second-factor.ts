import type { z } from 'zod';
import type { secondFactorRequest } from '@skyway/shared/schemas/admin/staff';
import { api } from '../../../lib/api-client.ts';
import type { StaffSession } from '../../../lib/session.ts';

/** The second step of signing in: a code of the authenticator app, or a recovery code. */
export const confirmSecondFactor = (body: z.infer<typeof secondFactorRequest>) =>
  api<StaffSession>('POST', '/session/second-factor', body);
