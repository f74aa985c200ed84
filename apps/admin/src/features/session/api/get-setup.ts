import type { z } from 'zod';
import type { setupInfoSchema } from '@skyway/shared/schemas/admin/staff';
import { api } from '../../../lib/api-client.ts';

export type SetupInfo = z.infer<typeof setupInfoSchema>;

/** Who a set-up link is for, and the TOTP secret to scan. */
export const getSetup = (token: string) => api<SetupInfo>('GET', `/setup/${token}`);
