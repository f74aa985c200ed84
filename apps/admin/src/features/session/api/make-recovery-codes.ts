import type { z } from 'zod';
import type { newRecoveryCodesRequest, recoveryCodesReply } from '@skyway/shared/schemas/admin/staff';
import { api } from '../../../lib/api-client.ts';

/** Replaces the signed-in member's recovery codes with ten new ones. */
export const makeRecoveryCodes = (body: z.infer<typeof newRecoveryCodesRequest>) =>
  api<z.infer<typeof recoveryCodesReply>>('POST', '/session/recovery-codes', body);
