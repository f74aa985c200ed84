import type { z } from 'zod';
import type { staffPatchRequest } from '@skyway/shared/schemas/admin/staff';
import { api } from '../../../lib/api-client.ts';

/** Gives a member another role, or disables (enables) them. */
export const changeStaff = (id: string, body: z.infer<typeof staffPatchRequest>) =>
  api('PATCH', `/staff/${id}`, body);
