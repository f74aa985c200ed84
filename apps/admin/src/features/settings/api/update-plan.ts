import type { z } from 'zod';
import type { planPatchRequest } from '@skyway/shared/schemas/admin/settings';
import { api } from '../../../lib/api-client.ts';
import type { Plan } from './list-plans.ts';

/** Sets a plan's unit price (in the currency's minor unit). */
export const updatePlan = (period: Plan['period'], body: z.infer<typeof planPatchRequest>) =>
  api('PATCH', `/plans/${period}`, body);
