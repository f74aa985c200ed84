import type { z } from 'zod';
import type { staffInviteRequest } from '@skyway/shared/schemas/admin/staff';
import { api } from '../../../lib/api-client.ts';

/** Invites a member of staff: the server mails them a set-up link. */
export const inviteStaff = (body: z.input<typeof staffInviteRequest>) => api('POST', '/staff', body);
