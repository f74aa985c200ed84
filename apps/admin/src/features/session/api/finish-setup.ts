import type { z } from 'zod';
import type { recoveryCodesReply, setupRequest } from '@skyway/shared/schemas/admin/staff';
import { api } from '../../../lib/api-client.ts';

/** Finishes a set-up link with a password and a first code; answers the recovery codes. */
export const finishSetup = (token: string, body: z.infer<typeof setupRequest>) =>
  api<z.infer<typeof recoveryCodesReply>>('POST', `/setup/${token}`, body);
