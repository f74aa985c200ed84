import type { z } from 'zod';
import type { adjustTimeReply, adjustTimeRequest } from '@skyway/shared/schemas/admin/users';
import { api } from '../../../lib/api-client.ts';

/** Gives an account time, or takes it back (negative), with the reason kept in the audit log. */
export const adjustTime = (id: string, body: z.input<typeof adjustTimeRequest>) =>
  api<z.infer<typeof adjustTimeReply>>('POST', `/users/${id}/time`, body);
