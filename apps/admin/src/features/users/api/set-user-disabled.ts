import type { z } from 'zod';
import type { userPatchRequest } from '@skyway/shared/schemas/admin/users';
import { api } from '../../../lib/api-client.ts';

/** Disables an account or enables it again, with the reason kept in the audit log. */
export const setUserDisabled = (id: string, body: z.input<typeof userPatchRequest>) =>
  api('PATCH', `/users/${id}`, body);
